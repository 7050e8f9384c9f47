"""How Big Manitou looks and speaks to a person: display models, log lines and a legend.

Built only from a seat's view, its legal actions and the events it may see (``campfire.core.
present``). Cards are named in the game's words: ``hunter 7``, ``chief``; tiles ``tipi ×3``,
``buffalo ×2``, ``totem``. A face-down hero keeps its name (everyone saw it played, manitou §9).

>>> import campfire
>>> game = campfire.get_game("manitou")
>>> state = game.new_game(2, seed=1)
>>> display = game.presenter().display(state.view(0), state.legal_actions(0), ["Ann", "Bob"])
>>> display.status, display.prompt
('Hunt 1 of 4 — choosing cards', 'Choose 8 cards for your hunting deck, one at a time.')
>>> display.actions[0].label, display.actions[0].target
('Choose the hunter 1', 'pool:h1')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from campfire.core import Action, Event
from campfire.core.present import (
    ActionChoice,
    CardFace,
    Display,
    LegendEntry,
    Message,
    PlayerPanel,
    Presenter,
    Zone,
    render_text,
)

from .actions import K_LOSE, K_MOVE, K_PASS, K_PICK, K_PLAY, K_TAKE, ManitouAction
from .cards import CARD_NAMES, FULL_POOL, TILE_NAMES
from .types import ManitouView

if TYPE_CHECKING:
    from .state import ManitouState

__all__ = [
    "MESSAGES",
    "ManitouPresenter",
    "breakdown",
    "card_label",
    "card_short",
    "render",
    "tile_label",
    "tile_short",
]

#: Every log line of Big Manitou: message id → English template. A translation replaces the
#: templates by id; ``.you`` ids are the reader's own actions, ``.by_you`` those done to others
#: by the reader's card.
MESSAGES: dict[str, str] = {
    "manitou.hunt_start": (
        "Hunt {hunt} begins: {dealer} deals and {first} plays first; the grounds hold {grounds}."
    ),
    "manitou.hunt_start.you": (
        "Hunt {hunt} begins: you deal and {first} plays first; the grounds hold {grounds}."
    ),
    "manitou.pick": "{player} chooses a card ({count} so far).",
    "manitou.pick_card.you": "You choose the {card}.",
    "manitou.hand.you": "You shuffle your cards into your deck and draw {cards}.",
    "manitou.dealt": "Every deck is shuffled and every hand holds its cards: the play begins.",
    "manitou.play": "{player} plays the {card} at ground {ground}.",
    "manitou.play.you": "You play the {card} at ground {ground}.",
    "manitou.play.totem": "{player} plays the {card} at ground {ground} as the totem's extra card.",
    "manitou.play.totem.you": "You play the {card} at ground {ground} as the totem's extra card.",
    "manitou.hero_down": (
        "{player}'s {card} at ground {ground} is beaten by {other}'s {by} and turned face down."
    ),
    "manitou.hero_down.you": (
        "Your {card} at ground {ground} is beaten by {other}'s {by} and turned face down."
    ),
    "manitou.hero_down.by_you": (
        "{player}'s {card} at ground {ground} is beaten by your {by} and turned face down."
    ),
    "manitou.hero_down.tie": (
        "{player}'s {card} at ground {ground} meets {other}'s {by}, the same hero: it is turned "
        "face down."
    ),
    "manitou.hero_down.tie.you": (
        "Your {card} at ground {ground} meets {other}'s {by}, the same hero: it is turned face "
        "down."
    ),
    "manitou.hero_down.tie.by_you": (
        "{player}'s {card} at ground {ground} meets your {by}, the same hero: it is turned face "
        "down."
    ),
    "manitou.hero_down.sacrifice": (
        "{player}'s {card} at ground {ground} removed {other}'s {by} and is turned face down "
        "with it (a sacrifice)."
    ),
    "manitou.hero_down.sacrifice.you": (
        "Your {card} at ground {ground} removed {other}'s {by} and is turned face down with it "
        "(a sacrifice)."
    ),
    "manitou.draw": "{player} draws a card.",
    "manitou.draw_card.you": "You draw the {card}.",
    "manitou.no_play": "{player} cannot play any card and passes.",
    "manitou.no_play.you": "You cannot play any card and pass.",
    "manitou.play_over": "Everyone has played seven cards.",
    "manitou.totem_pass": "{player} plays no extra card with the totem.",
    "manitou.totem_pass.you": "You play no extra card with the totem.",
    "manitou.horse_pass": "{player} moves no hunter with the horse.",
    "manitou.horse_pass.you": "You move no hunter with the horse.",
    "manitou.horse_move": (
        "{player} rides the horse: the {card} moves from ground {source} to ground {target}."
    ),
    "manitou.horse_move.you": (
        "You ride the horse: your {card} moves from ground {source} to ground {target}."
    ),
    "manitou.thief": (
        "The thief comes. Hunter totals: {sums}; {robbed} has the highest and is robbed."
    ),
    "manitou.thief.you": (
        "The thief comes. Hunter totals: {sums}; you have the highest and are robbed."
    ),
    "manitou.thief.many": (
        "The thief comes. Hunter totals: {sums}; {robbed} have the highest and are robbed one "
        "after the other."
    ),
    "manitou.thief.nobody": "The thief comes, but nobody played a hunter: nobody is robbed.",
    "manitou.robbed": "The thief takes {player}'s {tile}; it leaves the game.",
    "manitou.robbed.you": "The thief takes your {tile}; it leaves the game.",
    "manitou.thief_finds_nothing": "The thief finds no tile at {player}'s.",
    "manitou.thief_finds_nothing.you": "The thief finds no tile of yours.",
    "manitou.take": "{player} takes the {tile} from ground {ground}.",
    "manitou.take.you": "You take the {tile} from ground {ground}.",
    "manitou.piece": "{player} takes the {piece} piece from {holder}.",
    "manitou.piece.you": "You take the {piece} piece from {holder}.",
    "manitou.piece.first": "{player} takes the {piece} piece.",
    "manitou.piece.first.you": "You take the {piece} piece.",
    "manitou.tiles_removed": "Nobody takes {tiles} at ground {ground}: they leave the game.",
    "manitou.tiles_to_bag": "Nobody takes {tiles} at ground {ground}: they go back into the bag.",
    "manitou.hunt_end": "Hunt {hunt} is over. Points so far: {standings}.",
    "manitou.game_over": "The game is over: {winners} with {score}. Final points: {standings}.",
}

_HEROES = {"chief": "CH", "squaw": "SQ", "shaman": "SH", "spy": "SP", "healer": "HE"}
_PHASE_WORDS = {
    "select": "choosing cards",
    "play": "play",
    "totem": "the totem's extra card",
    "horse": "the horse's move",
    "thief": "the thief",
    "take": "sharing the grounds",
    "game_over": "game over",
}
_STEP_WORDS = {
    "hero": "your hero holds the ground",
    "best_hunter": "you have the strongest hunter there",
    "second_hunter": "you have the second strongest hunter there",
}


def card_label(card: str) -> str:
    """A card in plain words: ``h7`` → ``hunter 7``; heroes keep their names."""
    return f"hunter {card[1:]}" if card[:1] == "h" and card[1:].isdigit() else card


def card_short(card: str) -> str:
    """A card's code of at most four characters: ``H7``, ``H10``, ``CH`` (chief), ``SP``."""
    return _HEROES.get(card, card.upper()[:4])


def tile_label(tile: str) -> str:
    """A tile in plain words: ``tipi3`` → ``tipi ×3``, ``buffalo1`` → ``buffalo ×1``."""
    for kind in ("buffalo", "tipi"):
        if tile.startswith(kind) and tile[len(kind) :].isdigit():
            return f"{kind} ×{tile[len(kind) :]}"
    return tile


def tile_short(tile: str) -> str:
    """A tile's code: ``T3`` (tipi ×3), ``B2`` (buffalo ×2), ``HO``, ``TO``, ``TK``."""
    if tile.startswith("buffalo"):
        return "B" + tile[7:]
    if tile.startswith("tipi"):
        return "T" + tile[4:]
    return {"horse": "HO", "totem": "TO", "tomahawk": "TK"}.get(tile, tile[:4].upper())


def _tiles_text(tiles: Sequence[str]) -> str:
    """Tiles in plain words, equal ones counted: ``tipi ×3, buffalo ×1 (2 tiles)``."""
    if not tiles:
        return "no tiles"
    counts: dict[str, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    return ", ".join(tile_label(t) + (f" (×{n} tiles)" if n > 1 else "") for t, n in counts.items())


def _and(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _points(score: float) -> str:
    value = int(score) if float(score).is_integer() else score
    return f"{value} point" + ("" if value == 1 else "s")


def breakdown(details: Mapping[str, Any], score: float | None = None) -> str:
    """How a seat's points are made (the outcome's per-seat details), in words.

    With ``score``, totem and horse tiles and the wooden pieces are named as points only where
    they made some (the ``piece_vp`` option decides which count).

    >>> breakdown({"tipis": 4, "buffalo": 5, "pairs": 4, "totem_tiles": 1, "horse_tiles": 0,
    ...            "tomahawk_tiles": 2, "pieces": 1, "highest_tile": 3}, 7)
    '4 tipi–buffalo pairs (tipis 4, buffalo 5), 1 totem tile, 2 tomahawk tiles'
    """
    pairs = int(details.get("pairs", 0))
    totems, horses = int(details.get("totem_tiles", 0)), int(details.get("horse_tiles", 0))
    tomahawks, pieces = int(details.get("tomahawk_tiles", 0)), int(details.get("pieces", 0))
    tiles_count, pieces_count = True, False
    if score is not None:
        rest = int(score) - pairs - tomahawks
        if rest != totems + horses:
            pieces_count = rest in (pieces, totems + horses + pieces)
            tiles_count = rest == totems + horses + pieces
    parts = [
        f"{pairs} tipi–buffalo pair{'' if pairs == 1 else 's'}"
        f" (tipis {details.get('tipis', 0)}, buffalo {details.get('buffalo', 0)})"
    ]
    counted = [(totems, "totem"), (horses, "horse")] if tiles_count else []
    for k, word in [*counted, (tomahawks, "tomahawk")]:
        if k:
            parts.append(f"{k} {word} tile" + ("" if k == 1 else "s"))
    if pieces and pieces_count:
        parts.append(f"{pieces} wooden piece" + ("" if pieces == 1 else "s"))
    return ", ".join(parts)


class ManitouPresenter(Presenter):
    """The presenter of Big Manitou."""

    # ----- the display ---------------------------------------------------------------------

    def display(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> Display:
        """The grounds, the seat's cards, the players and the labelled legal actions."""
        return self._display(cast(ManitouView, view), legal, names)

    def _display(self, view: ManitouView, legal: Sequence[Action], names: Sequence[str]) -> Display:
        seat = view.get("seat")
        me = seat if isinstance(seat, int) else None
        n = int(view["players"])
        to_act = tuple(int(s) for s in view["to_act"])
        phase = str(view["phase"])
        over = phase == "game_over"
        zones = self._zones(view, me, names)
        actions = tuple(self._choice(a, view, n) for a in legal if isinstance(a, ManitouAction))
        return Display(
            game=self.game.name,
            seat=me,
            status=self._status(view),
            prompt=self._prompt(view, me, legal, names),
            to_act=to_act,
            players=self._players(view, me, names),
            zones=zones,
            actions=actions,
            progress=self._progress(view, me),
            over=over,
            result=self._result(view, names) if over else (),
        )

    def _status(self, view: ManitouView) -> str:
        phase = str(view["phase"])
        if phase == "game_over":
            return f"Game over after {view['hunts']} hunts"
        words = _PHASE_WORDS.get(phase, phase)
        if phase == "play":
            n = int(view["players"])
            words = f"play, round {min(int(view['play_turn']) // n + 1, 7)} of 7"
        elif phase == "take" and view.get("sharing"):
            words = f"sharing ground {view['sharing']['ground']}"
        return f"Hunt {view['hunt']} of {view['hunts']} — {words}"

    def _zones(self, view: ManitouView, me: int | None, names: Sequence[str]) -> tuple[Zone, ...]:
        zones: list[Zone] = []
        sharing = view.get("sharing")
        shared = sharing["ground"] if sharing is not None else None
        for g, ground in enumerate(view["grounds"], 1):
            tiles = tuple(
                CardFace(f"g{g}:t{i}", tile_label(t), tile_short(t))
                for i, t in enumerate(ground["tiles"])
            )
            note = "being shared" if shared == g and view["phase"] == "take" else ""
            zones.append(Zone(f"g{g}", f"Ground {g}", "row", tiles, note=note))
            cards = []
            for i, (owner, card, up) in enumerate(ground["cards"]):
                who = self.name(names, int(owner))
                cards.append(
                    CardFace(
                        f"g{g}:c{i}",
                        f"{who}'s {card_label(card)}",
                        card_short(card),
                        face_up=bool(up),
                        marks=() if up else ("face down",),
                    )
                )
            zones.append(Zone(f"g{g}:cards", f"Ground {g} cards", "row", tuple(cards)))
        you = view.get("you")
        if me is not None and you is not None:
            hand = tuple(
                CardFace(f"hand:{i}", card_label(c), card_short(c))
                for i, c in enumerate(you["hand"])
            )
            if view["phase"] == "select":
                zones.append(self._pool(view, me, you))
                chosen = tuple(
                    CardFace(f"chosen:{i}", card_label(c), card_short(c))
                    for i, c in enumerate(you["selection"])
                )
                zones.append(Zone("selection", "Your chosen cards", "row", chosen, owner=me))
            elif view["phase"] != "game_over":
                zones.append(Zone("hand", "Your hand", "row", hand, owner=me))
                if you["deck"]:
                    deck = tuple(
                        CardFace(f"deck:{i}", card_label(c), card_short(c))
                        for i, c in enumerate(you["deck"])
                    )
                    note = "drawn in an unknown order"
                    zones.append(Zone("deck", "Your deck", "row", deck, owner=me, note=note))
        for s in range(int(view["players"])):
            owned = view["tiles_owned"][s]
            faces = tuple(
                CardFace(f"tiles:{s}:{i}", tile_label(t), tile_short(t))
                for i, t in enumerate(owned)
            )
            zones.append(
                Zone(f"tiles:{s}", f"{self.name(names, s)}'s tiles", "row", faces, owner=s)
            )
        zones.append(Zone("bag", "Tiles in the bag", "counter", count=int(view["bag_size"])))
        out = view["out_of_game"]
        zones.append(
            Zone(
                "out",
                "Tiles out of the game",
                "counter",
                count=len(out),
                note=_tiles_text(out) if out else "",
            )
        )
        return tuple(zones)

    def _pool(self, view: ManitouView, me: int, you: Mapping[str, Any]) -> Zone:
        """The cards ``me`` may still choose (manitou §4): not used this cycle, not chosen."""
        left = dict(zip(CARD_NAMES, FULL_POOL, strict=True))
        for c in [*view["used_this_cycle"][me], *you["selection"]]:
            left[c] -= 1
        faces = []
        for c in CARD_NAMES:
            for k in range(left[c]):
                faces.append(
                    CardFace(f"pool:{c}" + (f":{k + 1}" if k else ""), card_label(c), card_short(c))
                )
        return Zone("pool", "Cards you may choose", "row", tuple(faces), owner=me)

    def _players(
        self, view: ManitouView, me: int | None, names: Sequence[str]
    ) -> tuple[PlayerPanel, ...]:
        n = int(view["players"])
        to_act = set(view["to_act"])
        outcome = view.get("outcome")
        scores = outcome["scores"] if outcome else view.get("scores")
        sums = [0] * n
        for ground in view["grounds"]:
            for owner, card, _ in ground["cards"]:
                if card[:1] == "h" and card[1:].isdigit():  # a hunter (not the healer)
                    sums[int(owner)] += int(card[1:])
        panels = []
        for s in range(n):
            facts: list[tuple[str, str]] = []
            if s == view["dealer"]:
                facts.append(("role", "dealer"))
            elif s == view["first_player"]:
                facts.append(("role", "first player"))
            if view["phase"] == "select":
                facts.append(
                    ("chosen", f"{view['selected_counts'][s]} of {view['selection_sizes'][s]}")
                )
            else:
                facts.append(("hand", str(view["hand_sizes"][s])))
                facts.append(("deck", str(view["deck_sizes"][s])))
            if view["phase"] != "select":
                facts.append(("hunter total", str(sums[s])))
            pieces = [p for p in ("totem", "horse") if view.get(f"{p}_holder") == s]
            if pieces:
                facts.append(("pieces", _and(pieces)))
            used = view["used_this_cycle"][s]
            if used:
                facts.append(("used this cycle", " ".join(card_short(c) for c in used)))
            score = _points(scores[s]) if scores is not None else ""
            if outcome and s in outcome.get("winners", ()):
                score += ", winner"
            panels.append(
                PlayerPanel(
                    s,
                    self.name(names, s),
                    score,
                    tuple(facts),
                    to_act=s in to_act,
                    you=s == me,
                )
            )
        return tuple(panels)

    def _progress(self, view: ManitouView, me: int | None) -> str:
        phase = view["phase"]
        if phase == "select" and me is not None:
            return f"chosen {view['selected_counts'][me]} of {view['selection_sizes'][me]}"
        if phase == "take" and view.get("sharing"):
            left = view["sharing"]["picks_left"]
            return f"{left} tile{'s' if left != 1 else ''} left to take"
        return ""

    def _prompt(
        self,
        view: ManitouView,
        me: int | None,
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> str:
        phase = str(view["phase"])
        to_act = [int(s) for s in view["to_act"]]
        if phase == "game_over":
            return "The game is over."
        if me is None or me not in to_act:
            if phase == "select":
                return "Wait while the players choose their cards."
            who = _and([self.name(names, s) for s in to_act])
            waits = {
                "play": f"Wait for {who} to play a card.",
                "totem": f"Wait for {who} to use the totem or pass.",
                "horse": f"Wait for {who} to use the horse or pass.",
                "thief": f"Wait for {who} to give a tile to the thief.",
                "take": f"Wait for {who} to take a tile.",
            }
            return waits.get(phase, f"Wait for {who}.")
        if phase == "select":
            size = view["selection_sizes"][me]
            if view["selected_counts"][me] == 0:
                return f"Choose {size} cards for your hunting deck, one at a time."
            left = size - view["selected_counts"][me]
            return f"Choose {left} more card{'s' if left != 1 else ''} for your hunting deck."
        if phase == "play":
            if all(isinstance(a, ManitouAction) and a.kind == K_PASS for a in legal):
                return (
                    "No card in your hand may be played (two of your heroes at every ground): pass."
                )
            return "Play a card from your hand face up at one of the three grounds."
        if phase == "totem":
            return "You hold the totem: play one extra card at a ground, or pass."
        if phase == "horse":
            return "You hold the horse: move one of your hunters to another ground, or pass."
        if phase == "thief":
            return "The thief robs you: choose the tile you give up."
        sharing = view.get("sharing")
        step = sharing["step"] if sharing is not None else None
        reason = _STEP_WORDS.get(str(step), "it is your share")
        left = sharing["picks_left"] if sharing is not None else 1
        ground = sharing["ground"] if sharing is not None else None
        return f"At ground {ground} {reason}: choose the tile to take" + (
            f" ({left} to take)." if left > 1 else "."
        )

    def _result(self, view: ManitouView, names: Sequence[str]) -> tuple[str, ...]:
        outcome = view.get("outcome")
        if not outcome:
            return ()
        lines = []
        details = outcome["details"]
        for s, score in enumerate(outcome["scores"]):
            win = " — winner" if s in outcome["winners"] else ""
            lines.append(
                f"{self.name(names, s)}: {_points(score)} ({breakdown(details[s], score)}){win}"
            )
        lines.append(
            "The most points win; ties go to the most tipis, then to the highest single tile."
        )
        return tuple(lines)

    def _choice(self, action: ManitouAction, view: ManitouView, n: int) -> ActionChoice:
        kind = action.kind
        if kind == K_PICK:
            card = CARD_NAMES[action.arg]
            return self.choice(
                action, n, f"Choose the {card_label(card)}", f"pool:{card}", group="pick", key=card
            )
        if kind == K_PLAY:
            card = CARD_NAMES[action.arg]
            you = view.get("you")
            hand = you["hand"] if you is not None else []
            g = action.ground + 1
            extra = " as the totem's extra card" if view["phase"] == "totem" else ""
            return self.choice(
                action,
                n,
                f"Play the {card_label(card)} at ground {g}{extra}",
                f"g{g}",
                group=f"play {card}",
                key=f"{card} g{g}",
                source=f"hand:{hand.index(card)}" if card in hand else None,
            )
        if kind == K_MOVE:
            card = CARD_NAMES[action.arg]
            g = action.ground + 1
            seat = view.get("seat")
            found = next(
                (
                    (i, j)
                    for i, ground in enumerate(view["grounds"], 1)
                    for j, (owner, c, _) in enumerate(ground["cards"])
                    if owner == seat and c == card
                ),
                None,
            )
            came = f" from ground {found[0]}" if found is not None else ""
            return self.choice(
                action,
                n,
                f"Move your {card_label(card)}{came} to ground {g}",
                f"g{g}",
                group=f"move {card}",
                key=f"{card} g{g}",
                source=f"g{found[0]}:c{found[1]}" if found is not None else None,
            )
        if kind in (K_TAKE, K_LOSE):
            tile = TILE_NAMES[action.arg]
            target = None
            if kind == K_TAKE:
                sharing = view.get("sharing")
                g = sharing["ground"] if sharing is not None else 0
                tiles = view["grounds"][g - 1]["tiles"] if g else []
                if tile in tiles:
                    target = f"g{g}:t{tiles.index(tile)}"
                label = f"Take the {tile_label(tile)}"
            else:
                seat = view["seat"] or 0  # only a seat loses tiles to the thief
                owned = view["tiles_owned"][seat]
                if tile in owned:
                    target = f"tiles:{seat}:{owned.index(tile)}"
                label = f"Give up the {tile_label(tile)}"
            return self.choice(
                action, n, label, target, group="take" if kind == K_TAKE else "lose", key=tile
            )
        labels = {
            "play": "Pass: no card may be played",
            "totem": "Play no extra card",
            "horse": "Move no hunter",
        }
        return self.choice(
            action, n, labels.get(str(view["phase"]), "Pass"), group="pass", key="pass"
        )

    # ----- log lines -----------------------------------------------------------------------

    def say(self, message_id: str, **params: Any) -> Message:
        """The message ``message_id`` (a key of :data:`MESSAGES`) filled with ``params``."""
        return Message.make(message_id, MESSAGES[message_id], **params)

    def message(self, event: Event, names: Sequence[str], seat: int | None) -> Message | None:
        """One log line of ``event`` as ``seat`` reads it (``None``: not worth a line)."""
        d = event.data
        t = event.type
        actor = d.get("seat")
        you = isinstance(actor, int) and actor == seat
        suffix = ".you" if you else ""
        player = self.name(names, actor) if isinstance(actor, int) else ""
        if t == "hunt_start":
            grounds = "; ".join(
                f"ground {g}: {_tiles_text(tiles)}" for g, tiles in enumerate(d["grounds"], 1)
            )
            mid = "manitou.hunt_start" + (".you" if d["dealer"] == seat else "")
            return self.say(
                mid,
                hunt=d["hunt"],
                dealer=self.name(names, d["dealer"]),
                first=self.name(names, d["first_player"]),
                grounds=grounds,
            )
        if t in ("pick", "draw"):
            # the reader's own pick or draw is told by the private event that names the card
            return None if you else self.say(f"manitou.{t}", player=player, **_only(d, "count"))
        if t in ("pick_card", "draw_card"):
            return self.say(f"manitou.{t}.you", card=card_label(d["card"])) if you else None
        if t == "hand":
            if not you:
                return None
            return self.say("manitou.hand.you", cards=_and([card_label(c) for c in d["hand"]]))
        if t in ("dealt", "play_over"):
            return self.say(f"manitou.{t}")
        if t == "play":
            mid = "manitou.play" + (".totem" if d.get("totem") else "") + suffix
            return self.say(mid, player=player, card=card_label(d["card"]), ground=d["ground"])
        if t == "hero_down":
            return self._hero_down(d, names, seat)
        if t in ("no_play", "totem_pass", "horse_pass", "thief_finds_nothing"):
            return self.say(f"manitou.{t}{suffix}", player=player)
        if t == "horse_move":
            return self.say(
                f"manitou.horse_move{suffix}",
                player=player,
                card=card_label(d["card"]),
                source=d["from"],
                target=d["to"],
            )
        if t == "thief":
            robbed = list(d["robbed"])
            if not robbed:
                return self.say("manitou.thief.nobody")
            sums = ", ".join(f"{self.name(names, s)} {v}" for s, v in enumerate(d["sums"]))
            who = _and(["you" if s == seat else self.name(names, s) for s in robbed])
            if len(robbed) > 1:
                return self.say("manitou.thief.many", sums=sums, robbed=who)
            if robbed == [seat]:
                return self.say("manitou.thief.you", sums=sums)
            return self.say("manitou.thief", sums=sums, robbed=who)
        if t == "robbed":
            return self.say(f"manitou.robbed{suffix}", player=player, tile=tile_label(d["tile"]))
        if t == "take":
            return self.say(
                f"manitou.take{suffix}",
                player=player,
                tile=tile_label(d["tile"]),
                ground=d["ground"],
            )
        if t == "piece":
            to = d["to"]
            mine = ".you" if to == seat else ""
            if d.get("from") is None:
                return self.say(
                    f"manitou.piece.first{mine}", player=self.name(names, to), piece=d["piece"]
                )
            holder = "you" if d["from"] == seat else self.name(names, d["from"])
            return self.say(
                f"manitou.piece{mine}", player=self.name(names, to), piece=d["piece"], holder=holder
            )
        if t in ("tiles_removed", "tiles_to_bag"):
            return self.say(f"manitou.{t}", tiles=_tiles_text(d["tiles"]), ground=d["ground"])
        if t == "hunt_end":
            return self.say("manitou.hunt_end", hunt=d["hunt"], standings=self._standings(d, names))
        if t == "game_over":
            outcome = d["outcome"]
            winners = [int(s) for s in outcome.get("winners", ())]
            who = _and([self.name(names, s) for s in winners])
            wins = f"{who} {'share the win' if len(winners) > 1 else 'wins'}"
            best = outcome["scores"][winners[0]] if winners else 0
            return self.say(
                "manitou.game_over",
                winners=wins,
                score=_points(best),
                standings=self._standings(outcome, names),
            )
        return None

    def _hero_down(self, d: Mapping[str, Any], names: Sequence[str], seat: int | None) -> Message:
        reason = str(d.get("reason", "beaten"))
        base = "manitou.hero_down" + ("" if reason == "beaten" else f".{reason}")
        owner, by_seat = d["seat"], d.get("by_seat")
        if owner == seat:
            mid = base + ".you"
        elif by_seat == seat and reason != "sacrifice":
            mid = base + ".by_you"
        else:
            mid = base
        return self.say(
            mid,
            player=self.name(names, owner),
            card=card_label(d["card"]),
            ground=d.get("ground", "?"),
            other=self.name(names, by_seat) if isinstance(by_seat, int) else "another player",
            by=card_label(str(d.get("by", "hero"))),
        )

    def _standings(self, data: Mapping[str, Any], names: Sequence[str]) -> str:
        details = data.get("details") or [{} for _ in data["scores"]]
        return "; ".join(
            f"{self.name(names, s)} {_points(score)} ({breakdown(details[s], score)})"
            for s, score in enumerate(data["scores"])
        )

    # ----- the legend ----------------------------------------------------------------------

    def legend(self) -> list[LegendEntry]:
        """Every code the display uses."""
        return [
            LegendEntry("H1 … H10", "hunter cards of strength 1 to 10"),
            LegendEntry("CH", "chief (a hero)"),
            LegendEntry("SQ", "squaw (a hero)"),
            LegendEntry("SH", "shaman, the rain maker (a hero)"),
            LegendEntry("SP", "spy, the scout (a hero)"),
            LegendEntry("HE", "healer, the medicine man (a hero)"),
            LegendEntry("face down", "a beaten hero: it stays on the ground and counts no more"),
            LegendEntry("B1 … B5", "buffalo tile counting as 1 … 5 buffalo"),
            LegendEntry("T1 … T5", "tipi tile counting as 1 … 5 tipis"),
            LegendEntry("HO", "horse tile (1 point; the most horse tiles hold the horse piece)"),
            LegendEntry("TO", "totem tile (1 point; the most totem tiles hold the totem piece)"),
            LegendEntry("TK", "tomahawk tile (1 point; +1 to your hunters when sharing)"),
            LegendEntry("Ground 1 … 3", "the three hunting grounds, shared in that order"),
            LegendEntry(
                "hunter total", "the sum of a player's hunters played this hunt (the thief)"
            ),
            LegendEntry(
                "used this cycle", "cards played in the first hunt of the pair (not choosable)"
            ),
            LegendEntry(">", "the player to act"),
        ]


def _only(data: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: data[k] for k in keys if k in data}


def render(state: ManitouState, seat: int | None) -> str:
    """``state.render(seat)``: the plain text of the presenter's display for ``seat``.

    Players are named ``seat 0``, ``seat 1``, …; the seat to act sees its legal actions' count.
    """
    from .game import GAME

    names = [f"seat {s}" for s in range(state.num_players)]
    legal = state.legal_actions(seat) if seat is not None and seat in state.seats_to_act() else []
    return render_text(ManitouPresenter(GAME).display(state.view(seat), legal, names))
