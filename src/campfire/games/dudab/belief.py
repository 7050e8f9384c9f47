"""What a Dudab seat has seen go out of sight: the public history of a round (dudab §9).

Cards go from the table into hidden places in full view of everyone: a capture moves the
column's cards (and its Baby heap) into the capturer's own pile, a Baby buries a whole column in
its heap, and a revealed hand shows cards that then stay in that hand until they are played or
moved away. :meth:`DudabState.determinize` re-deals all of them as unknown; a
:class:`DudabMemory` remembers them and deals only worlds that agree:

- every Baby heap holds exactly the cards that were buried in it;
- every other seat's own pile holds the cards it captured in view of everyone (and the card
  it put there from a revealed hand);
- the cards of a revealed hand are still in that hand, or (after a private move to the pile:
  a trim to 5 or the rest of a hand after a capture) in that hand or that pile.

The rest is dealt as :meth:`DudabState.determinize` deals it. A fact that no longer fits the
state (a memory started in the middle of a round) is dropped rather than trusted.

>>> import random
>>> from campfire.games.dudab import GAME
>>> state = GAME.new_game(2, seed=1)
>>> memory = DudabMemory(0)
>>> rng = random.Random(0)
>>> while not state.piles[1]:  # play until seat 1 captures in view of everyone
...     seat = state.current_seat()
...     memory.observe([e for e in state.apply(seat, rng.choice(state.legal_actions(seat)))
...                     if e.to is None or 0 in e.to])
>>> world = memory.sample(state, random.Random(2))
>>> def faces(cards): return sorted(FACE[c] for c in cards)
>>> world.view(0) == state.view(0), faces(world.piles[1]) == faces(state.piles[1])
(True, True)
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from itertools import groupby
from typing import Final

from campfire.core import Belief, Event, State
from campfire.core.draws import sample, shuffle

from .cards import FACE, FACE_BABY, FACE_JUNGLE, cards_in_use, parse_face
from .state import (
    FIRST_SPECIAL,
    HAND_DEAL,
    NO_SEAT,
    OVER,
    T_KEEP,
    DudabState,
    random_deck,
)

__all__ = ["UNSEEN", "DudabMemory"]

_FACE_OF: Final = FACE.__getitem__
# the faces ascend with the card ids (``_deal`` groups a sorted pool by face)
assert all(FACE[c] <= FACE[c + 1] for c in range(len(FACE) - 1))

#: a card of a column that the memory never saw (the first round's starters)
UNSEEN: Final = -1


def _remove(faces: list[int], face: int) -> bool:
    """Remove one ``face`` from ``faces``; whether there was one.

    Looked for first: most calls find none (an unknown hand), and a raised ``ValueError``
    costs a hundred times a look through a few faces.
    """
    if face in faces:
        faces.remove(face)
        return True
    return False


class DudabMemory(Belief):
    """A seat's perfect memory of the cards that went out of sight in view of everyone."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        #: per column, the faces of every card in it (heap, visible cards, Jungle); a column
        #: first met after the round started (the first round's starters are dealt before any
        #: agent observes) holds an :data:`UNSEEN` card
        self.columns: dict[int, list[int]] = {}
        #: per seat, faces known to be in its own pile
        self.piles: dict[int, list[int]] = {}
        #: per seat, faces known to be in its hand (revealed, not moved away since)
        self.in_hand: dict[int, list[int]] = {}
        #: per seat, faces known to be in its hand or its own pile
        self.hand_or_pile: dict[int, list[int]] = {}

    def clone(self) -> DudabMemory:
        """An independent copy."""
        other = DudabMemory(self.seat)
        other.columns = {c: f[:] for c, f in self.columns.items()}
        other.piles = {s: f[:] for s, f in self.piles.items()}
        other.in_hand = {s: f[:] for s, f in self.in_hand.items()}
        other.hand_or_pile = {s: f[:] for s, f in self.hand_or_pile.items()}
        return other

    # ----- memory --------------------------------------------------------------------------

    def observe(self, events: Sequence[Event]) -> None:
        """Follow the cards that go out of sight in view of everyone."""
        for e in events:
            t = e.type
            d = e.data
            if t == "round_start":
                self.columns = {c: [parse_face(f)] for c, f in enumerate(d["columns"])}
                self.piles, self.in_hand, self.hand_or_pile = {}, {}, {}
            elif t == "round_end":
                self.columns = {}
                self.piles, self.in_hand, self.hand_or_pile = {}, {}, {}
            elif t == "place":
                face = parse_face(d["card"])
                self._column(d["column"]).append(face)
                self._left_hand(d["seat"], face)
            elif t == "capture":
                self._capture(d["seat"], d["column"] - 1, d["cards"])
            elif t == "jungle_laid":
                self._column(d["column"]).append(FACE_JUNGLE)
            elif t == "baby_laid":
                self._column(d["column"]).append(FACE_BABY)
            elif t == "baby_cover":
                self._column(d["column"]).append(parse_face(d["card"]))
            elif t == "reveal_hand":
                self._revealed(d["seat"], [parse_face(f) for f in d["cards"]])
            elif t == "to_pile":
                seat = d["seat"]
                if d["card"] is not None:  # from a revealed hand: public
                    face = parse_face(d["card"])
                    self._left_hand(seat, face)
                    self.piles.setdefault(seat, []).append(face)
                else:  # a private trim: the revealed cards may have gone too
                    self._blur(seat)
            elif t == "rest":
                seat = d["seat"]
                if d["to"] == "discard":
                    for name in d["cards"]:
                        self._left_hand(seat, parse_face(name))
                else:
                    self._blur(seat)

    def _column(self, number: int) -> list[int]:
        """The faces in column ``number`` (counted from 1)."""
        return self.columns.setdefault(number - 1, [UNSEEN])

    def _left_hand(self, seat: int, face: int) -> None:
        """``seat`` put a card of ``face`` from its hand where everyone sees it."""
        if not _remove(self.in_hand.get(seat, []), face):
            _remove(self.hand_or_pile.get(seat, []), face)

    def _blur(self, seat: int) -> None:
        """``seat`` moved cards from its hand to its pile unseen."""
        known = self.in_hand.pop(seat, [])
        if known:
            self.hand_or_pile.setdefault(seat, []).extend(known)

    def _revealed(self, seat: int, faces: list[int]) -> None:
        """``seat`` showed its whole hand: what it held before and does not show is in its pile."""
        # the faces known to be in its hand or pile, counted (in the order first met: in hand,
        # then in hand or pile), less those shown; a plain dict counts in C where compiled
        earlier: dict[int, int] = {}
        for f in self.in_hand.get(seat, []):
            earlier[f] = earlier.get(f, 0) + 1
        for f in self.hand_or_pile.get(seat, []):
            earlier[f] = earlier.get(f, 0) + 1
        for f in faces:
            if f in earlier:
                earlier[f] -= 1
        moved = [f for f, k in earlier.items() for _ in range(k)]
        if moved:
            self.piles.setdefault(seat, []).extend(moved)
        self.in_hand[seat] = faces[:]
        self.hand_or_pile.pop(seat, None)

    def _capture(self, seat: int, col: int, cards: list[str]) -> None:
        """``seat`` captured the column's heap and ``cards`` (the visible ones, named)."""
        shown = [parse_face(f) for f in cards]
        content = self.columns.get(col, [UNSEEN])
        # the heap's faces (all but its top card), less those shown, by face
        buried: dict[int, int] = {}
        for f in content[:-1]:
            buried[f] = buried.get(f, 0) + 1
        for f in shown:
            buried[f] = buried.get(f, 0) - 1
        pile = self.piles.setdefault(seat, [])
        pile.extend(shown)
        for f in sorted(buried):
            if f != UNSEEN:
                pile.extend([f] * max(buried[f], 0))
        self.columns[col] = content[-1:]

    # ----- determinisations ----------------------------------------------------------------

    def sample(self, state: State, rng: random.Random) -> State:
        """A determinisation that agrees with everything the seat saw go out of sight."""
        if not isinstance(state, DudabState) or state.phase == OVER:
            return state.determinize(self.seat, rng)
        if not (self.piles or self.in_hand or self.hand_or_pile or self._heaps(state)):
            return state.determinize(self.seat, rng)
        world = self._deal(state, rng, either_in_hand_first=False)
        if world is None:  # the unknown cards cannot fill the hands: keep revealed cards there
            world = self._deal(state, rng, either_in_hand_first=True)
        return world if world is not None else state.determinize(self.seat, rng)

    def _heaps(self, state: DudabState) -> dict[int, list[int]]:
        """Per column with a non-empty heap, the faces buried in it (when they are known)."""
        out: dict[int, list[int]] = {}
        for col, content in sorted(self.columns.items()):
            if col >= state.ncols or not state.heap[col]:
                continue
            rest = Counter(content)
            shown = [FACE[c] for c in state.vis[col]]
            if state.jungle[col] >= 0:
                shown.append(FACE_JUNGLE)
            for face in shown:
                if rest[face] > 0:
                    rest[face] -= 1
                elif rest[UNSEEN] > 0:
                    rest[UNSEEN] -= 1
                else:
                    break
            else:
                if rest.total() == len(state.heap[col]):
                    out[col] = sorted(f for f in rest.elements() if f != UNSEEN)
        return out

    def _deal(
        self, state: DudabState, rng: random.Random, either_in_hand_first: bool
    ) -> DudabState | None:
        """Re-deal the hidden cards under the memory's facts (``None``: no deal fits)."""
        seat = self.seat
        n = state.num_players
        other = state.clone()
        capturer = state.tasks[-1][1] if state.tasks and state.tasks[-1][0] == T_KEEP else NO_SEAT
        hands: dict[int, list[int]] = {}  # seat → hidden hand slots (hand, then kept cards)
        hand_len: dict[int, int] = {}
        for p in range(n):
            if p == seat:
                continue
            hidden = other.hands[p] if p != state.revealed else []
            kept = other.kept if p == capturer else []
            if hidden or kept:
                hands[p] = hidden + kept
                hand_len[p] = len(hidden)
        piles = {p: other.piles[p] for p in range(n) if p != seat}
        heaps = other.heap
        pool = sorted(
            [c for h in hands.values() for c in h]
            + [c for p in piles.values() for c in p]
            + [c for h in heaps for c in h]
            + other.draw
        )
        # each face's cards, highest first (popping gives the lowest card of a face first): the
        # faces ascend with the card ids, so in the sorted pool each face is one run
        by_face = {face: list(run) for face, run in groupby(reversed(pool), _FACE_OF)}

        def take(faces: list[int]) -> list[int] | None:
            if not faces:
                return []
            need: dict[int, int] = {}  # (a Counter costs more for a few faces)
            for f in faces:
                need[f] = need.get(f, 0) + 1
            for f, k in need.items():
                if len(by_face.get(f, ())) < k:
                    return None
            return [by_face[f].pop() for f in faces]

        new_heaps: dict[int, list[int]] = {}
        for col, faces in self._heaps(state).items():
            cards = take(faces)
            if cards is not None:
                new_heaps[col] = cards
        fixed_hand: dict[int, list[int]] = {}
        fixed_pile: dict[int, list[int]] = {}
        either: dict[int, list[int]] = {}
        for p in sorted(piles):
            known_pile = self.piles.get(p, [])
            if len(known_pile) <= len(piles[p]):
                fixed_pile[p] = take(known_pile) or []
            if p in hands:
                known_hand = self.in_hand.get(p, [])
                if len(known_hand) <= len(hands[p]):
                    fixed_hand[p] = take(known_hand) or []
                free = (
                    len(hands[p])
                    + len(piles[p])
                    - len(fixed_hand.get(p, []))
                    - len(fixed_pile.get(p, []))
                )
                known_either = self.hand_or_pile.get(p, [])
                if len(known_either) <= free:
                    either[p] = take(known_either) or []
        rest: list[int] = []
        for cards in by_face.values():
            rest.extend(cards)
        rest.sort()
        # the seats' free places: hand slots must take cards that can be in a hand
        hand_free: dict[int, int] = {}
        pile_free: dict[int, int] = {}
        for p in sorted(piles):
            hand_slots = len(hands[p]) - len(fixed_hand.get(p, [])) if p in hands else 0
            pile_slots = len(piles[p]) - len(fixed_pile.get(p, []))
            hand_part: list[int] = []
            pile_part: list[int] = []
            cards = either.get(p, [])
            if cards:
                if either_in_hand_first:
                    k = min(hand_slots, len(cards))
                    hand_part, pile_part = cards[:k], cards[k:]
                else:
                    spots = sample(rng, range(hand_slots + pile_slots), len(cards))
                    for card, spot in zip(cards, spots, strict=True):
                        (hand_part if spot < hand_slots else pile_part).append(card)
                if len(pile_part) > pile_slots:
                    return None
            fixed_hand.setdefault(p, []).extend(hand_part)
            fixed_pile.setdefault(p, []).extend(pile_part)
            hand_free[p] = hand_slots - len(hand_part)
            pile_free[p] = pile_slots - len(pile_part)
        # ``rest`` is sorted and the Jungle and Baby cards have the highest ids
        split = bisect_left(rest, FIRST_SPECIAL)
        normal = rest[:split]
        special = rest[split:]
        shuffle(rng, normal)
        slots = sum(hand_free.values())
        if slots > len(normal):
            return None
        pos = 0  # the cards go out in turn (slices: no per-card step here)
        for p in sorted(hands):
            end = pos + hand_free[p]
            cards = fixed_hand.get(p, []) + normal[pos:end]
            pos = end
            shuffle(rng, cards)
            h = hand_len[p]
            if h:
                other.hands[p][:] = cards[:h]
            if p == capturer:
                other.kept[:] = cards[h:]
        leftover = normal[slots:] + special
        shuffle(rng, leftover)
        pos = 0
        for p in sorted(piles):
            end = pos + pile_free[p]
            piles[p][:] = fixed_pile.get(p, []) + leftover[pos:end]
            pos = end
        for col, heap in enumerate(heaps):
            known = new_heaps.get(col, [])
            end = pos + len(heap) - len(known)
            heap[:] = known + leftover[pos:end]
            pos = end
        end = pos + len(other.draw)
        other.draw[:] = leftover[pos:end]
        # the places hold exactly the hidden cards: none was short of cards
        assert end <= len(leftover), "a re-deal ran out of cards"
        deck = cards_in_use(state.options.use_jungle, state.options.use_baby)
        head = HAND_DEAL * n + state.ncols
        other.decks = [random_deck(deck, head, rng) for _ in state.decks]
        other._legal = None
        return other
