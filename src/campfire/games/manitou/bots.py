"""Big Manitou heuristic bot: a sensible, fast player that reads only its seat's view.

:class:`ManitouHeuristic` selects strong hunters and a few heroes, plays each card where it
gains the most tiles (a hero where it wins the contest or claims an empty ground, a hunter where
it becomes the best or second-best unique hunter, with the cheapest card that does it), uses the
totem and the horse when they gain something, takes the tiles that add most points, and gives
the thief the least valuable tile (manitou §12 M10: the loss that least reduces its pairs).

It is deterministic given its seed; with ``noise`` > 0 it plays a uniformly random legal
action with that probability (the easy level).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, cast

from mypy_extensions import mypyc_attr

from campfire.core import Action, Agent, Observation

# from its own module, not the package: mypyc's non-native subclass needs it imported
from campfire.core.agent import NoisyConfig

from .actions import K_LOSE, K_MOVE, K_PASS, K_PICK, K_PLAY, K_TAKE, ManitouAction
from .cards import (
    HORSE,
    MAX_MULTIPLIER,
    NUM_HUNTERS,
    NUM_TILE_TYPES,
    TIPI,
    TOMAHAWK,
    TOTEM,
    beat_table,
    parse_card,
    parse_tile,
    tile_value,
)
from .types import ManitouView

__all__ = [
    "Ground",
    "HeuristicRules",
    "ManitouHeuristic",
    "ManitouHeuristicConfig",
    "points_table",
    "tile_points",
]

#: Selection preference: strong hunters first, the heroes that win most contests early.
_PICK_ORDER: Final = tuple(
    parse_card(name)
    for name in (
        *("h10", "h9", "spy", "h8", "chief", "h7", "squaw", "shaman", "h6", "healer"),
        *("h5", "h4", "h3", "h2", "h1"),
    )
)
_PICK_RANK: Final = {c: i for i, c in enumerate(_PICK_ORDER)}


def _owned_counts(names: list[str]) -> list[int]:
    counts = [0] * NUM_TILE_TYPES
    for name in names:
        counts[parse_tile(name)] += 1
    return counts


def _vp(owned: list[int]) -> int:
    buffalo = sum((m + 1) * owned[m] for m in range(MAX_MULTIPLIER))
    tipis = sum((m + 1) * owned[TIPI + m] for m in range(MAX_MULTIPLIER))
    return min(buffalo, tipis) + owned[HORSE] + owned[TOTEM] + owned[TOMAHAWK]


#: :func:`tile_points` of every tile type, per tiles-owned vector (the bot asks for the same few
#: vectors thousands of times in a search's rollouts); cleared when it grows past its bound
_POINTS: Final[dict[tuple[int, ...], tuple[float, ...]]] = {}
_POINTS_BOUND: Final = 1 << 16


def points_table(owned: list[int]) -> tuple[float, ...]:
    """:func:`tile_points` of each tile type for a seat owning ``owned`` (memoised).

    >>> points_table([0] * 13)[5] == tile_points([0] * 13, 5)
    True
    """
    key = tuple(owned)
    table = _POINTS.get(key)
    if table is None:
        if len(_POINTS) >= _POINTS_BOUND:
            _POINTS.clear()
        table = tuple(tile_points(owned, t) for t in range(NUM_TILE_TYPES))
        _POINTS[key] = table
    return table


def tile_points(owned: list[int], tile: int) -> float:
    """What gaining ``tile`` is worth to a seat owning ``owned`` (points, plus small extras).

    >>> none, one_buffalo, two_tipis = [0] * 13, [1] + [0] * 12, [0] * 5 + [2] + [0] * 7
    >>> tile_points(none, 5), tile_points(one_buffalo, 5), tile_points(two_tipis, 5)
    (0.6, 1.6, 0.3)
    """
    after = owned[:]
    after[tile] += 1
    gain = float(_vp(after) - _vp(owned))
    if tile < HORSE:
        buffalo = sum((m + 1) * after[m] for m in range(MAX_MULTIPLIER))
        tipis = sum((m + 1) * after[TIPI + m] for m in range(MAX_MULTIPLIER))
        mine, other = (tipis, buffalo) if tile >= TIPI else (buffalo, tipis)
        # a future pair if it keeps the balance, and the tie-breaks (tipis, a high tile)
        gain += (0.5 if mine <= other + 1 else 0.2) + 0.1 * tile_value(tile)
    elif tile == TOMAHAWK:
        gain += 0.3  # stronger hunters later
    else:
        gain += 0.2  # the totem or horse piece
    return round(gain, 6)


#: a ground as the rules read it: its tiles, and its cards as (seat, card type, face up)
Ground = tuple[list[int], list[tuple[int, int, bool]]]


class HeuristicRules:
    """The heuristic's rule of thumb for one seat, on public facts already read as numbers.

    :class:`ManitouHeuristic` reads them from its view; the search's rollout model
    (:class:`~campfire.games.manitou.rollout.ManitouRollout`) reads the same facts straight
    from a simulated state, which is many times cheaper than building a view per move, and so
    plays exactly as the bot would.
    """

    __slots__ = ("beats", "seat")

    def __init__(self, seat: int, beats: tuple[tuple[bool, ...], ...]) -> None:
        self.seat = seat
        self.beats = beats

    def choose(
        self,
        legal: list[ManitouAction],
        owned: list[list[int]],
        grounds: Callable[[], list[Ground]],
    ) -> ManitouAction:
        """One of ``legal`` (at least two actions of one step).

        ``owned`` is each seat's count of tiles per tile type; ``grounds`` reads the grounds
        (called only for a play or a horse move).
        """
        kind = legal[0].kind
        if kind == K_PICK:
            return min(legal, key=lambda a: _PICK_RANK[a.arg])
        mine = owned[self.seat]
        if kind == K_LOSE:
            # the thief: lose what costs least, the lowest tile first (M10)
            return min(legal, key=lambda a: (-self._loss_value(mine, a.arg), tile_value(a.arg)))
        points = points_table(mine)
        if kind == K_TAKE:
            return max(legal, key=lambda a: points[a.arg])
        if kind == K_PLAY:  # a play turn, or the totem's extra card (PASS comes last)
            return self._play(grounds, legal, owned, points)
        if kind == K_MOVE:
            return self._horse(grounds(), legal, owned, points)
        return legal[0]

    # ----- helpers -----------------------------------------------------------------------------

    @staticmethod
    def _loss_value(owned: list[int], tile: int) -> float:
        after = owned[:]
        after[tile] -= 1
        return float(_vp(after) - _vp(owned)) - 0.01 * tile_value(tile)

    def _hunter_share(
        self,
        cards: list[tuple[int, int, bool]],
        values: list[float],
        owned: list[list[int]],
        has_hero_claim: bool,
    ) -> float:
        """Tile points this seat expects from ranking at a ground with ``cards`` on it.

        ``values`` are the points of the ground's tiles to this seat, highest first.
        """
        if has_hero_claim and values:
            values = values[1:]
        # a hunter's strength is its card type + 1, plus its owner's tomahawks
        entries = [(c + 1 + owned[s][TOMAHAWK], s) for s, c, _ in cards if c < NUM_HUNTERS]
        counts: dict[int, int] = {}
        for v, _ in entries:
            counts[v] = counts.get(v, 0) + 1
        unique = sorted((e for e in entries if counts[e[0]] == 1), reverse=True)
        share = 0.0
        if unique and unique[0][1] == self.seat:
            share += sum(values[:2])
        if len(unique) > 1 and unique[1][1] == self.seat:
            share += sum(values[2:])
        return share

    @staticmethod
    def _hero_owner(cards: list[tuple[int, int, bool]]) -> tuple[int, list[int]]:
        up = [(s, c) for s, c, u in cards if u and c >= NUM_HUNTERS]
        if not up:
            return -1, []
        return up[0][0], [c for _, c in up]

    def _play_value(
        self,
        ground: Ground,
        values: list[float],
        card: int,
        owned: list[list[int]],
        before: dict[int, float],
        g: int,
    ) -> float:
        """What playing ``card`` at ground ``g`` gains (``before``: the shares without it)."""
        tiles, cards = ground
        if not tiles:
            return -0.5 - 0.05 * card  # nothing to win: dump a weak card
        owner, heroes = self._hero_owner(cards)
        best_tile = values[0]
        if card >= NUM_HUNTERS:
            if owner == self.seat:
                return -0.3  # a second hero only protects the first
            if owner < 0:
                return best_tile * 0.8
            beats = self.beats[card]
            if len(heroes) == 1:
                if beats[heroes[0]]:
                    return best_tile * 1.1
                if heroes[0] == card:
                    return best_tile * 0.4  # deny
                return -1.0
            last = heroes[-1]
            return best_tile * 0.3 if beats[last] or last == card else -1.0
        claim = owner == self.seat
        share = before.get(g)
        if share is None:
            share = before[g] = self._hunter_share(cards, values, owned, claim)
        after = self._hunter_share([*cards, (self.seat, card, True)], values, owned, claim)
        # keep strong hunters for later, and a high thief sum costs a tile
        return after - share - 0.04 * card

    def _play(
        self,
        read_grounds: Callable[[], list[Ground]],
        legal: list[ManitouAction],
        owned: list[list[int]],
        points: tuple[float, ...],
    ) -> ManitouAction:
        plays = [a for a in legal if a.kind == K_PLAY]
        if not plays:
            return legal[0]
        grounds = read_grounds()
        values = [sorted((points[t] for t in tiles), reverse=True) for tiles, _ in grounds]
        before: dict[int, float] = {}
        gains = [
            self._play_value(grounds[a.ground], values[a.ground], a.arg, owned, before, a.ground)
            for a in plays
        ]
        best = max(range(len(plays)), key=gains.__getitem__)  # the first of the best
        passing = [a for a in legal if a.kind == K_PASS]
        if passing and gains[best] <= 0:
            return passing[0]  # an optional totem card that gains nothing
        return plays[best]

    def _horse(
        self,
        grounds: list[Ground],
        legal: list[ManitouAction],
        owned: list[list[int]],
        points: tuple[float, ...],
    ) -> ManitouAction:
        values = [sorted((points[t] for t in tiles), reverse=True) for tiles, _ in grounds]

        def total(layout: list[list[tuple[int, int, bool]]]) -> float:
            value = 0.0
            for g, cards in enumerate(layout):
                owner, _ = self._hero_owner(cards)
                value += self._hunter_share(cards, values[g], owned, owner == self.seat)
            return value

        base = total([cards for _, cards in grounds])
        best = next(a for a in legal if a.kind == K_PASS)
        best_gain = 0.0
        for a in legal:
            if a.kind != K_MOVE:
                continue
            layout = []
            for g, (_, cards) in enumerate(grounds):
                kept = [c for c in cards if not (c[0] == self.seat and c[1] == a.arg)]
                if g == a.ground:
                    kept.append((self.seat, a.arg, True))
                layout.append(kept)
            gain = total(layout) - base
            if gain > best_gain + 1e-9:
                best, best_gain = a, gain
        return best


# options declared with option(): a plain class when compiled (docs/compiled.md)
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class ManitouHeuristicConfig(NoisyConfig):
    """Parameters of the Big Manitou heuristic bot: ``noise`` (:class:`NoisyConfig`)."""


class ManitouHeuristic(Agent):
    """A rule-of-thumb Big Manitou player (deterministic given its seed; uses only its view)."""

    name = "heuristic"
    description = "plays each card where it wins the most tiles; cheap, deterministic"
    config_type = ManitouHeuristicConfig
    config: ManitouHeuristicConfig

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chart = getattr(self.options, "hero_chart", "seed_plus_1997")
        self._rules = HeuristicRules(self.seat, beat_table(chart))

    def act(self, obs: Observation) -> Action:
        """Choose one of the legal actions."""
        legal = [a for a in obs.legal_actions if isinstance(a, ManitouAction)]
        if len(legal) == 1:
            return legal[0]
        slip = self.config.slip(self.rng, legal)
        if slip is not None:
            return slip
        view = cast(ManitouView, obs.view)
        owned = [_owned_counts(names) for names in view["tiles_owned"]]
        return self._rules.choose(legal, owned, lambda: _view_grounds(view))


def _view_grounds(view: ManitouView) -> list[Ground]:
    """Every ground of the view, as numbers."""
    out: list[Ground] = []
    for ground in view["grounds"]:
        tiles = [parse_tile(t) for t in ground["tiles"]]
        # JSON arrays at run time, typed as tuples: unpacked as Any (compiled, a tuple is checked)
        raw: list[Any] = cast(list[Any], ground["cards"])
        cards = [(int(s), parse_card(str(c)), bool(u)) for s, c, u in raw]
        out.append((tiles, cards))
    return out
