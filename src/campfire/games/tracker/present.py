"""How Tracker looks to a person: the board, the players, prompts, log lines and a legend.

The presenter sees only a seat's view, its legal actions and the events it may see (see
:mod:`campfire.core.present`). Tracker is a memory game (tracker §8, D14): no display and no log
line ever names a face-down card, not even one the seat peeked at. A peek reaches the peeker
alone as a :class:`~campfire.core.present.Reveal` of its step (:meth:`TrackerPresenter.changes`);
a user interface that shows it while it is on screen overlays it with
:meth:`~campfire.core.present.Presenter.reveal`.

Tribes have colours (red, blue, yellow, green, purple, orange for ``T0``–``T5``) and a letter
each (``R B Y G P O``), so that they read without seeing colour.

>>> from campfire import get_game
>>> game = get_game("tracker")
>>> state = game.new_game(2, seed=3)
>>> seat = state.current_seat()
>>> shown = game.presenter().display(state.view(seat), state.legal_actions(seat), ["Ann", "Bob"])
>>> shown.prompt
'Your turn: peek at 2 cards, or play trackers into the centre to capture cards.'
>>> [(a.label, a.target, a.key) for a in shown.actions][:1]
[('Peek at position 0', 'pos:0', '0')]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, cast

from campfire.core import Action, Event
from campfire.core.outcome import tied_groups
from campfire.core.present import (
    ActionChoice,
    CardFace,
    Display,
    KeptParts,
    LegendEntry,
    Message,
    PlayerPanel,
    Presenter,
    Reveal,
    StepDisplay,
    ViewHeader,
    Zone,
    and_list,
    current_translator,
    text,
)

from .actions import TrackerAction
from .cards import CENTRE, POSITION_CELLS, is_scout, parse_card, parse_tribe, tribe_of
from .types import GameOverData, TrackerOutcome, TrackerView

__all__ = ["MESSAGES", "TRIBE_COLOURS", "TRIBE_LETTERS", "TrackerPresenter", "card_label"]

#: the palette colour of each tribe ``T0``–``T5``
TRIBE_COLOURS = ("red", "blue", "yellow", "green", "purple", "orange")
#: the letter that tells each tribe without seeing its colour
TRIBE_LETTERS = ("R", "B", "Y", "G", "P", "O")

#: every English template of Tracker's log lines and display texts, by message id
MESSAGES: dict[str, str] = {
    # events
    "tracker.peek": "{player} peeks at the card at position {position}.",
    "tracker.peek.you": "You look at the card at position {position}.",
    "tracker.trackers_played": (
        "{player} plays {count} trackers into the centre to capture ({left} left)."
    ),
    "tracker.trackers_played.one": (
        "{player} plays a tracker into the centre to capture ({left} left)."
    ),
    "tracker.trackers_played.you": (
        "You play {count} trackers into the centre to capture ({left} left)."
    ),
    "tracker.trackers_played.one.you": (
        "You play a tracker into the centre to capture ({left} left)."
    ),
    "tracker.take": "{player} collects the card at position {position}, face down.",
    "tracker.take.you": "You collect the card at position {position}, face down.",
    "tracker.collection_done": "{player} stops collecting: {count} cards in the captured pile.",
    "tracker.collection_done.one": "{player} stops collecting: 1 card in the captured pile.",
    "tracker.collection_done.you": "You stop collecting: {count} cards in your captured pile.",
    "tracker.collection_done.one.you": "You stop collecting: 1 card in your captured pile.",
    "tracker.relocate": "{player} moves the card at position {source} to position {target}.",
    "tracker.relocate.you": "You move the card at position {source} to position {target}.",
    "tracker.relocations_done": "{player} ends the turn.",
    "tracker.relocations_done.you": "You end your turn.",
    "tracker.player_out": (
        "{player} has played every tracker and takes no more turns; the captured cards still count."
    ),
    "tracker.player_out.you": (
        "You have played every tracker and take no more turns; your captured cards still count."
    ),
    "tracker.final_turns": (
        "Only {player} still holds trackers: two last turns follow, a peek and a final capture."
    ),
    "tracker.final_turns.you": (
        "Only you still hold trackers: two last turns follow, a peek and a final capture."
    ),
    "tracker.final_peek_declined": "{player} skips the last peek.",
    "tracker.final_peek_declined.you": "You skip the last peek.",
    "tracker.game_over": (
        "The game is over; every card is turned face up. {scores}. The highest score wins: "
        "{winners}."
    ),
    "tracker.game_over.shared": (
        "The game is over; every card is turned face up. {scores}. The highest score wins: "
        "{winners} share the win."
    ),
    # score breakdowns (tracker §6), used in the game-over line and the display's result
    "tracker.score": "{player} {points} points: {parts}",
    "tracker.score.enemy": "{count} enemy scouts captured {points:+d}",
    "tracker.score.enemy.one": "1 enemy scout captured {points:+d}",
    "tracker.score.own_on_board": "{count} own scouts left on the board {points:+d}",
    "tracker.score.own_on_board.one": "1 own scout left on the board {points:+d}",
    "tracker.score.own_captured": "{count} own scouts captured {points:+d}",
    "tracker.score.own_captured.one": "1 own scout captured {points:+d}",
    "tracker.score.false": "{count} false tracks captured {points:+d}",
    "tracker.score.false.one": "1 false track captured {points:+d}",
    "tracker.score.nothing": "nothing scored",
    "tracker.result.win": "{winners} wins with {points} points (the highest score).",
    "tracker.result.shared": "{winners} share the win with {points} points.",
    # the tribe letters on the cards and the seats (corners, codes): each language's initials
    "tracker.letter.red": "R",
    "tracker.letter.blue": "B",
    "tracker.letter.yellow": "Y",
    "tracker.letter.green": "G",
    "tracker.letter.purple": "P",
    "tracker.letter.orange": "O",
    "tracker.result.tiebreak": (
        "{players} tie on {points} points; the tie-break, more enemy scouts collected, puts "
        "{leaders} ahead ({counts})."
    ),
    "tracker.result.tie": (
        "{players} tie on {points} points and collected as many enemy scouts ({count}): they "
        "share the place."
    ),
    # status lines
    "tracker.status.normal": (
        "Tracker — {cards} cards on the board, {centre} trackers in the centre"
    ),
    "tracker.status.final_peek": (
        "Tracker — last turns: the final peek ({cards} cards on the board)"
    ),
    "tracker.status.final_capture": (
        "Tracker — last turns: the final capture ({cards} cards on the board)"
    ),
    "tracker.status.game_over": "Tracker — game over",
    # prompts for the seat to act
    "tracker.prompt.turn": (
        "Your turn: peek at {count} cards, or play trackers into the centre to capture cards."
    ),
    "tracker.prompt.turn.one": (
        "Your turn: peek at a card, or play trackers into the centre to capture cards."
    ),
    "tracker.prompt.peeking": "Choose the next card to peek at.",
    "tracker.prompt.collecting": (
        "Choose the cards to collect face down (nobody sees them, not even you), "
        "or stop collecting."
    ),
    "tracker.prompt.collecting.final": (
        "Your final capture: collect any cards you like, then stop; the game ends."
    ),
    "tracker.prompt.relocating": (
        "You may move {left} more cards to empty positions: choose a card to move, or end "
        "your turn."
    ),
    "tracker.prompt.placing": "Choose the empty position for the card from position {position}.",
    "tracker.prompt.final_peek": (
        "Your two last turns begin: peek at {count} cards, or skip the peek."
    ),
    "tracker.prompt.final_capture": (
        "Your final capture: play your {count} remaining trackers into the centre."
    ),
    # prompts while waiting
    "tracker.wait.turn": "Waiting for {player} to peek or to capture.",
    "tracker.wait.peeking": "Waiting for {player} to peek at the next card.",
    "tracker.wait.collecting": "Waiting for {player} to collect cards.",
    "tracker.wait.relocating": "Waiting for {player} to move cards.",
    "tracker.wait.final_peek": "Waiting for {player}'s last peek.",
    "tracker.wait.final_capture": "Waiting for {player}'s final capture.",
    "tracker.over": "The game is over; every card is face up.",
    # progress of a multi-step choice
    "tracker.progress.peeked": "peeked at {done} of {count} cards",
    "tracker.progress.moved": "moved {done} of up to {count} cards",
    # action labels
    "tracker.action.peek": "Peek at position {position}",
    "tracker.action.track": "Play {count} trackers into the centre and capture",
    "tracker.action.track.one": "Play 1 tracker into the centre and capture",
    "tracker.action.track.final": "Play your {count} remaining trackers and make the final capture",
    "tracker.action.take": "Collect the card at position {position}",
    "tracker.action.done.collecting": "Stop collecting",
    "tracker.action.done.relocating": "End your turn without more moves",
    "tracker.action.lift": "Move the card at position {position}",
    "tracker.action.drop": "Put the card on position {position}",
    "tracker.action.decline": "Skip the last peek",
    # zones, facts and cards
    "tracker.zone.board": "Board",
    "tracker.zone.centre": "Centre (trackers played)",
    "tracker.zone.pile": "{player}'s captured cards",
    "tracker.zone.pile.you": "Your captured cards",
    "tracker.zone.pile.note": "face down until the end of the game",
    "tracker.fact.tribe": "tribe",
    "tracker.fact.tribe.value": "{colour}",
    "tracker.fact.trackers": "trackers left",
    "tracker.fact.captured": "cards captured",
    "tracker.fact.last": "last turns",
    "tracker.fact.last.value": "yes",
    "tracker.points": "{count} points",
    "tracker.points.one": "1 point",
    "tracker.card.scout": "{colour} scout",
    "tracker.card.false": "{colour} false track",
    "tracker.centre.count.one": "Centre of the board: 1 tracker played",
    "tracker.centre.count": "Centre of the board: {count} trackers played",
    "tracker.centre.cell": "Centre of the board (no cards here)",
    "tracker.mark.peeked": "peeked at this turn",
    "tracker.mark.lifted": "being moved",
    "tracker.mark.seen": "you see it now",
    "tracker.mark.marked": "marked",
    # tribe colours (tracker §2), inserted into card names and the players' facts
    "tracker.colour.red": "red",
    "tracker.colour.blue": "blue",
    "tracker.colour.yellow": "yellow",
    "tracker.colour.green": "green",
    "tracker.colour.purple": "purple",
    "tracker.colour.orange": "orange",
    # the legend
    "tracker.legend.position": "a face-down card on position 12 (type 12 to choose it)",
    "tracker.legend.empty": "an empty position: its card was captured or moved away",
    "tracker.legend.peeked": "a card peeked at this turn (its position is public, its face not)",
    "tracker.legend.lifted": "the card being moved to an empty position",
    "tracker.legend.marked": "a position you marked (learning mode)",
    "tracker.legend.scout": "a scout of the green tribe (shown after the game)",
    "tracker.legend.false": "a false track (shown after the game; its tribe does not count)",
    "tracker.legend.track": "keys: play 1, 2 or 3 trackers to capture",
    "tracker.legend.done": "key: stop collecting, or end the turn without more moves",
    "tracker.legend.decline": "key: skip the last peek",
    "tracker.legend.tribe": "the {colour} tribe",
}


def _text(message_id: str, **params: Any) -> str:
    return text(message_id, MESSAGES[message_id], **params)


def _message(message_id: str, **params: Any) -> Message:
    return Message.make(message_id, MESSAGES[message_id], **params)


def _colour(tribe: int) -> str:
    """The tribe's colour in words, in the language in force (palette names are never shown)."""
    return _text(f"tracker.colour.{TRIBE_COLOURS[tribe]}")


def _letter(tribe: int) -> str:
    """A tribe's letter on the cards, in the language in force (``green`` → ``G``; ``Z``)."""
    return _text(f"tracker.letter.{TRIBE_COLOURS[tribe]}")


def card_label(name: str) -> str:
    """The plain-words name of a play card: ``S-T3-1`` → ``green scout`` (never its code)."""
    card = parse_card(name)
    tribe = tribe_of(card)
    key = "tracker.card.scout" if is_scout(card) else "tracker.card.false"
    return _text(key, colour=_colour(tribe))


def _face(card_id: str, name: str, marks: tuple[str, ...] = ()) -> CardFace:
    """A face-up play card: ``S:G`` for a scout of the green tribe, ``f`` for a false track."""
    card = parse_card(name)
    tribe = tribe_of(card)
    letter = _letter(tribe)
    scout = is_scout(card)
    return CardFace(
        card_id,
        card_label(name),
        f"S:{letter}" if scout else "f",
        colour=TRIBE_COLOURS[tribe],
        symbol=letter,
        marks=marks,
        icon="scout" if scout else "tracks",
    )


def _tribe(view: TrackerView, seat: int) -> int:
    return parse_tribe(view["tribes"][seat])


#: the 8 × 8 grid in reading order: ``(position, -1)`` for a board cell, ``(-1, i)`` for the
#: centre's i-th cell
_GRID: tuple[tuple[int, int], ...] = tuple(
    (-1, sorted(CENTRE).index((r, c))) if (r, c) in CENTRE else (POSITION_CELLS.index((r, c)), -1)
    for r in range(8)
    for c in range(8)
)
#: the faces of an empty position and of a face-down card nobody touched (no words: shared)
_EMPTY = tuple(CardFace(f"pos:{pos}", empty=True) for pos in range(len(POSITION_CELLS)))
_DOWN = tuple(
    CardFace(f"pos:{pos}", short=str(pos), face_up=False) for pos in range(len(POSITION_CELLS))
)


#: parts of display models already made (board, piles, panels, choices), by everything each is
#: made from: the board, the piles and the panels are mostly the same for every seat's display
_KEPT = KeptParts()
_kept = _KEPT.get


class TrackerPresenter(Presenter):
    """Tracker's board, players, prompts, log lines and legend (tracker §2, §5, §6, §8)."""

    # ----- the display -----------------------------------------------------------------------

    def display(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> Display:
        """The board (an 8 × 8 grid round the centre), piles, players, prompt and actions."""
        return self._display(cast(TrackerView, view), legal, names)

    def _display(self, view: TrackerView, legal: Sequence[Action], names: Sequence[str]) -> Display:
        head = ViewHeader.of(view)
        seat, n, to_act, over = head.seat, head.players, head.to_act, head.over
        # every part is kept by what it is made from (_kept): the same inputs, the same object
        tr, phase, step = current_translator(), view["phase"], view["step"]
        board = (
            "board",
            tr,
            tuple(view["occupied"]),
            tuple(view["peeked_this_turn"]),
            view["lifted"],
            view["centre"],
            tuple(view["board"]) if over else None,
        )
        zones = [_kept(board, lambda: self._board(view)), self._centre(view)]
        for s in range(n):
            pile = (
                "pile",
                tr,
                s,
                view["seat"] == s,
                self.name(names, s),
                view["captured_counts"][s],
                tuple(view["captured"][s]) if over else None,
            )
            zones.append(_kept(pile, partial(self._pile, view, s, names)))
        players = []
        for s in range(n):
            panel = (
                "panel",
                tr,
                s,
                s == seat,
                self.name(names, s),
                view["tribes"][s],
                view["trackers"][s],
                view["captured_counts"][s],
                view["last_player"] == s,
                phase,
                view["outcome"]["scores"][s] if "outcome" in view else None,
                s in view["to_act"],
            )
            players.append(_kept(panel, partial(self._panel, view, s, names, seat)))
        game = self.game.name
        actions = tuple(
            _kept(("choice", tr, game, a, n, phase, step), partial(self._choice, view, a, n))
            for a in legal
            if isinstance(a, TrackerAction)
        )
        return Display(
            game=self.game.name,
            seat=seat,
            status=self._status(view),
            prompt=self._prompt(view, seat, names),
            to_act=to_act,
            players=tuple(players),
            zones=tuple(zones),
            actions=actions,
            progress=self._progress(view) if to_act else "",
            over=over,
            result=self._result(view, names) if over else (),
        )

    def reveal(
        self,
        display: Display,
        shown: Mapping[str, CardFace],
        marked: Collection[str] = (),
    ) -> Display:
        """``display`` with the cards the seat is looking at now face up, ``marked`` ones ``+``.

        ``shown`` holds the faces of the seat's reveals still on screen, by card id (its peeks:
        :meth:`changes`); ``marked`` lists the positions' ids to mark (a learning mode). The
        display itself never holds a face-down card; only the user interface that was shown the
        card may overlay it.
        """
        board = display.zone("board")
        mark = _text("tracker.mark.marked")
        cards = []
        for card in board.cards:
            face = shown.get(card.id)
            if face is not None and not card.empty:
                card = replace(face, id=card.id)
            elif card.id in marked and not card.empty and not card.marks:
                card = replace(card, short="+" + card.short, marks=(mark,))
            cards.append(card)
        zones = tuple(
            replace(z, cards=tuple(cards)) if z.id == "board" else z for z in display.zones
        )
        return replace(display, zones=zones)

    def changes(self, events: Sequence[Event], seat: int | None) -> StepDisplay:
        """The positions, the centre and the piles the step touched; the peeked card (its seat).

        A ``peek_card`` event reaches only the peeker: its card becomes a
        :class:`~campfire.core.present.Reveal` for that seat, marked "you see it now".
        """
        changed: list[str] = []
        moved: list[tuple[str, str]] = []
        reveals: list[Reveal] = []
        for event in events:
            d, kind = event.data, event.type
            if kind in ("peek", "take", "lift") and isinstance(d.get("pos"), int):
                changed.append(f"pos:{d['pos']}")
            if kind in ("take", "collection_done") and isinstance(d.get("seat"), int):
                changed.append(f"pile:{d['seat']}")
            if kind == "trackers_played":
                changed.append("centre")
            if kind == "relocate":
                source, target = f"pos:{d['from']}", f"pos:{d['to']}"
                changed.extend((source, target))
                moved.append((source, target))
            if kind == "peek_card" and seat is not None and event.to == frozenset({seat}):
                seen = (_text("tracker.mark.seen"),)
                reveals.append(Reveal(seat, _face(f"pos:{d['pos']}", str(d["card"]), seen)))
        return StepDisplay(tuple(dict.fromkeys(changed)), tuple(moved), tuple(reveals))

    def _board(self, view: TrackerView) -> Zone:
        over = view["phase"] == "game_over"
        occupied = set(view["occupied"])
        peeked = set(view["peeked_this_turn"])
        lifted = view["lifted"]
        played = int(view["centre"])
        # the centre's first cell counts the trackers played (footprints, the count big, the
        # words as its name and tooltip); the other three say in words what they are
        key = "tracker.centre.count.one" if played == 1 else "tracker.centre.count"
        counted = CardFace(
            "centre:0", _text(key, count=played), empty=True, icon="tracks", rank=str(played)
        )
        cell = _text("tracker.centre.cell")
        cells = []
        for pos, centre in _GRID:  # the faces that say nothing but a position are shared
            if pos < 0:
                face = counted if centre == 0 else CardFace(f"centre:{centre}", cell, empty=True)
                cells.append(face)
            elif pos not in occupied:
                cells.append(_EMPTY[pos])
            elif over and (name := view["board"][pos]) is not None:
                cells.append(_face(f"pos:{pos}", name))
            elif pos == lifted:
                mark = (_text("tracker.mark.lifted"),)
                cells.append(CardFace(f"pos:{pos}", short=f"^{pos}", face_up=False, marks=mark))
            elif pos in peeked:
                mark = (_text("tracker.mark.peeked"),)
                cells.append(CardFace(f"pos:{pos}", short=f"*{pos}", face_up=False, marks=mark))
            else:
                cells.append(_DOWN[pos])
        return Zone("board", _text("tracker.zone.board"), "grid", tuple(cells), columns=8)

    def _centre(self, view: TrackerView) -> Zone:
        return Zone("centre", _text("tracker.zone.centre"), "counter", count=int(view["centre"]))

    def _pile(self, view: TrackerView, seat: int, names: Sequence[str]) -> Zone:
        mine = view["seat"] == seat
        label = _text("tracker.zone.pile" + (".you" if mine else ""), player=self.name(names, seat))
        count = int(view["captured_counts"][seat])
        zone_id = f"pile:{seat}"
        if view["phase"] == "game_over":
            cards = tuple(
                _face(f"{zone_id}:{i}", name) for i, name in enumerate(view["captured"][seat])
            )
            return Zone(zone_id, label, "row", cards, owner=seat, count=count)
        note = _text("tracker.zone.pile.note")
        return Zone(zone_id, label, "hidden", owner=seat, count=count, note=note)

    def _panel(
        self, view: TrackerView, seat: int, names: Sequence[str], you: int | None
    ) -> PlayerPanel:
        tribe = _tribe(view, seat)
        trackers = int(view["trackers"][seat])
        facts = [
            (
                _text("tracker.fact.tribe"),
                _text(
                    "tracker.fact.tribe.value",
                    colour=_colour(tribe),
                ),
            ),
            (_text("tracker.fact.trackers"), str(trackers)),
            (_text("tracker.fact.captured"), str(view["captured_counts"][seat])),
        ]
        if view["last_player"] == seat and view["phase"] != "game_over":
            facts.append((_text("tracker.fact.last"), _text("tracker.fact.last.value")))
        score = ""
        if "outcome" in view:
            score = _points(view["outcome"]["scores"][seat])
        return PlayerPanel(
            seat,
            self.name(names, seat),
            score,
            tuple(facts),
            colour=TRIBE_COLOURS[tribe],
            symbol=_letter(tribe),
            to_act=seat in view["to_act"],
            you=seat == you,
            out=trackers == 0 and view["phase"] != "game_over",
        )

    @staticmethod
    def _status(view: TrackerView) -> str:
        phase = str(view["phase"])
        return _text(f"tracker.status.{phase}", cards=len(view["occupied"]), centre=view["centre"])

    @staticmethod
    def _peeks(view: TrackerView) -> int:
        """How many cards a peek turn shows (tracker §5.1A: ``min(peek_count, occupied)``)."""
        return min(int(view["peek_count"]), len(view["occupied"]))

    def _prompt(self, view: TrackerView, seat: int | None, names: Sequence[str]) -> str:
        phase, step = view["phase"], view["step"]
        if phase == "game_over":
            return _text("tracker.over")
        actor = int(view["to_act"][0])
        if seat != actor:
            who = self.name(names, actor)
            if phase in ("final_peek", "final_capture") and step == "turn_start":
                return _text(f"tracker.wait.{phase}", player=who)
            waiting = "relocating" if step == "placing" else step
            return _text(
                f"tracker.wait.{'turn' if waiting == 'turn_start' else waiting}", player=who
            )
        if step == "turn_start":
            if phase == "final_capture":
                return _text("tracker.prompt.final_capture", count=view["trackers"][actor])
            if phase == "final_peek":
                return _text("tracker.prompt.final_peek", count=self._peeks(view))
            count = self._peeks(view)
            key = "tracker.prompt.turn.one" if count == 1 else "tracker.prompt.turn"
            return _text(key, count=count)
        if step == "collecting":
            final = phase == "final_capture"
            return _text("tracker.prompt.collecting" + (".final" if final else ""))
        if step == "relocating":
            left = int(view["max_relocations"]) - int(view["relocations_this_turn"])
            return _text("tracker.prompt.relocating", left=left)
        if step == "placing":
            return _text("tracker.prompt.placing", position=view["lifted"])
        return _text("tracker.prompt.peeking")

    def _progress(self, view: TrackerView) -> str:
        step = view["step"]
        if step == "peeking":
            done = len(view["peeked_this_turn"])
            return _text("tracker.progress.peeked", done=done, count=self._peeks(view))
        if step in ("relocating", "placing"):
            return _text(
                "tracker.progress.moved",
                done=view["relocations_this_turn"],
                count=view["max_relocations"],
            )
        return ""

    def _choice(self, view: TrackerView, action: TrackerAction, players: int) -> ActionChoice:
        kind, arg = action.kind, action.arg
        if kind in ("peek", "take", "lift", "drop"):
            label = _text(f"tracker.action.{kind}", position=arg)
            group = {"take": "collect", "lift": "move", "drop": "move"}.get(kind, kind)
            return self.choice(action, players, label, f"pos:{arg}", group=group, key=str(arg))
        if kind == "track":
            if view["phase"] == "final_capture":
                label = _text("tracker.action.track.final", count=arg)
            else:
                key = "tracker.action.track.one" if arg == 1 else "tracker.action.track"
                label = _text(key, count=arg)
            return self.choice(action, players, label, "centre", group="track", key=f"t{arg}")
        if kind == "done":
            step = "collecting" if view["step"] == "collecting" else "relocating"
            label = _text(f"tracker.action.done.{step}")
            return self.choice(action, players, label, group="done", key="d")
        return self.choice(
            action, players, _text("tracker.action.decline"), group="decline", key="x"
        )

    # ----- scores ------------------------------------------------------------------------------

    def _score_lines(self, outcome: TrackerOutcome, names: Sequence[str]) -> list[str]:
        """One line per player: the score and how it was made (tracker §6)."""
        lines = []
        for seat, (points, d) in enumerate(zip(outcome["scores"], outcome["details"], strict=True)):
            parts = []
            for key, count, factor in (
                ("enemy", d["enemy_scouts_captured"], 3),
                ("own_on_board", d["own_scouts_on_board"], 2),
                ("own_captured", d["own_scouts_captured"], -3),
                ("false", d["false_tracks_captured"], -2),
            ):
                if count:
                    one = ".one" if count == 1 else ""
                    parts.append(
                        _text(f"tracker.score.{key}{one}", count=count, points=factor * count)
                    )
            lines.append(
                _text(
                    "tracker.score",
                    player=self.name(names, seat),
                    points=points,
                    parts=", ".join(parts) or _text("tracker.score.nothing"),
                )
            )
        return lines

    def _winners(self, outcome: TrackerOutcome, names: Sequence[str]) -> str:
        return and_list([self.name(names, int(w)) for w in outcome["winners"]])

    def _result(self, view: TrackerView, names: Sequence[str]) -> tuple[str, ...]:
        outcome = view["outcome"]
        winners = outcome["winners"]
        key = "tracker.result.win" if len(winners) == 1 else "tracker.result.shared"
        points = outcome["scores"][int(winners[0])]
        last = _text(key, winners=self._winners(outcome, names), points=points)
        return (*self._score_lines(outcome, names), *self._ties(outcome, names), last)

    def _ties(self, outcome: TrackerOutcome, names: Sequence[str]) -> list[str]:
        """How each tie on points was decided (tracker §6).

        By the enemy scouts collected; shared when those are equal too.
        """
        lines = []
        for group in tied_groups(outcome["scores"]):
            players = and_list([self.name(names, s) for s in group])
            points = outcome["scores"][group[0]]
            enemies = {s: int(outcome["details"][s]["enemy_scouts_captured"]) for s in group}
            best = max(enemies.values())
            if len(set(enemies.values())) == 1:
                lines.append(
                    _text("tracker.result.tie", players=players, points=points, count=best)
                )
                continue
            leaders = and_list([self.name(names, s) for s in group if enemies[s] == best])
            counts = ", ".join(f"{self.name(names, s)} {enemies[s]}" for s in group)
            lines.append(
                _text(
                    "tracker.result.tiebreak",
                    players=players,
                    points=points,
                    leaders=leaders,
                    counts=counts,
                )
            )
        return lines

    # ----- log lines ---------------------------------------------------------------------------

    def message(self, event: Event, names: Sequence[str], seat: int | None) -> Message | None:
        """The log line of ``event`` as ``seat`` reads it; the peeked card is never named."""
        d = event.data
        kind = event.type
        actor = d.get("seat")
        you = ".you" if actor is not None and actor == seat else ""
        player = self.name(names, int(actor)) if isinstance(actor, int) else ""
        if kind == "peek":
            # the peeker reads its private ``peek_card`` line instead of this one
            return None if you else _message("tracker.peek", player=player, position=d["pos"])
        if kind == "peek_card":
            return _message("tracker.peek.you", position=d["pos"])
        if kind == "trackers_played":
            one = ".one" if d["count"] == 1 else ""
            return _message(
                f"tracker.trackers_played{one}{you}",
                player=player,
                count=d["count"],
                left=d["left"],
            )
        if kind in ("take", "relocations_done", "player_out", "final_turns", "final_peek_declined"):
            params: dict[str, Any] = {"player": player}
            if kind == "take":
                params["position"] = d["pos"]
            return _message(f"tracker.{kind}{you}", **params)
        if kind == "collection_done":
            one = ".one" if d["count"] == 1 else ""
            return _message(f"tracker.collection_done{one}{you}", player=player, count=d["count"])
        if kind == "relocate":
            return _message(
                f"tracker.relocate{you}", player=player, source=d["from"], target=d["to"]
            )
        if kind == "game_over":
            return self._game_over(d, names)
        return None  # ``lift``: the move is one line, when the card is put down

    def _game_over(self, data: Mapping[str, Any], names: Sequence[str]) -> Message:
        outcome = cast(GameOverData, data)["outcome"]
        scores = "; ".join(self._score_lines(outcome, names))
        winners = self._winners(outcome, names)
        key = "tracker.game_over" if len(outcome["winners"]) == 1 else "tracker.game_over.shared"
        # the outcome goes with the text as data (the breakdown), for other languages
        return _message(key, scores=scores, winners=winners, outcome=outcome)

    # ----- legend --------------------------------------------------------------------------------

    def legend(self) -> list[LegendEntry]:
        """Every symbol of Tracker's displays."""
        entries = [
            LegendEntry(symbol, _text(f"tracker.legend.{key}"))
            for symbol, key in (
                ("12", "position"),
                ("·", "empty"),
                ("*12", "peeked"),
                ("^12", "lifted"),
                ("+12", "marked"),
                (f"S:{_letter(TRIBE_COLOURS.index('green'))}", "scout"),
                ("f", "false"),
                ("t1, t2, t3", "track"),
                ("d", "done"),
                ("x", "decline"),
            )
        ]
        for tribe in range(len(TRIBE_LETTERS)):
            meaning = _text("tracker.legend.tribe", colour=_colour(tribe))
            entries.append(LegendEntry(_letter(tribe), meaning))
        return entries


def _points(score: int) -> str:
    """A score in points ("1 point", "3 points"), counted in the language in force."""
    if score == 1:
        return _text("tracker.points.one")
    return _text("tracker.points", count=score)
