"""How Dudab looks to a person: columns, piles, hands, prompts, log lines and a legend.

The presenter sees only a seat's view, its legal actions and the events it may see (see
:mod:`campfire.core.present`), so it cannot show another seat's hand or own pile.

Cards are named in plain words: ``red fur 3`` (a Number card: colour, symbol, value), ``Dudab``,
``red Shaman``, ``Jungle``, ``Baby``. Compact codes put a colour letter first (``B R Y G`` for
blue, red, yellow, green), then a symbol letter (``h m c f`` for hand, mammoth, club, fur) and
the value: ``Rf3``; a Shaman is ``ShR``. Each coloured card also carries its palette colour, so
it reads both with and without colour. The lowest total wins (dudab §7.4), and every summary
says so.

>>> from campfire import get_game
>>> game = get_game("dudab")
>>> state = game.new_game(3, seed=5)
>>> seat = state.current_seat()
>>> shown = game.presenter().display(state.view(seat), state.legal_actions(seat), ["A", "B", "C"])
>>> shown.status
'Dudab — round 1 of 3, 69 cards in the draw pile'
>>> shown.prompt
'Your turn: play a card on a column, or draw a card.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    StepDisplay,
    ViewHeader,
    Zone,
    and_list,
    current_translator,
    text,
)

from .actions import K_BABY, K_DRAW, K_JUNGLE, K_KEEP, K_PENALTY, K_PILE, K_PLACE, DudabAction
from .cards import (
    CALL_NAMES,
    COLOURS,
    FACE_DUDAB,
    FACE_JUNGLE,
    FACE_NAMES,
    FACE_SHAMAN,
    SYMBOLS,
)
from .types import DudabView

__all__ = ["COLOUR_LETTERS", "MESSAGES", "SYMBOL_LETTERS", "DudabPresenter", "face_label"]

#: the letter that tells each colour (blue, red, yellow, green) without seeing it
COLOUR_LETTERS = ("B", "R", "Y", "G")
#: the letter of each symbol (hand, mammoth, club, fur)
SYMBOL_LETTERS = ("h", "m", "c", "f")

#: every English template of Dudab's log lines and display texts, by message id
MESSAGES: dict[str, str] = {
    # events
    "dudab.round_start": (
        "Round {round} begins and {player} starts; the columns start with {columns}."
    ),
    "dudab.round_start.you": (
        "Round {round} begins and you start; the columns start with {columns}."
    ),
    "dudab.deal": "You are dealt {cards}.",
    "dudab.place": "{player} plays {card} on column {column}.",
    "dudab.place.you": "You play {card} on column {column}.",
    "dudab.place.call": "{player} plays a Dudab on column {column} and calls for {call}.",
    "dudab.place.call.you": "You play a Dudab on column {column} and call for {call}.",
    "dudab.capture": "{player} captures {count} cards from column {column}: {cards}.",
    "dudab.capture.you": "You capture {count} cards from column {column}: {cards}.",
    "dudab.capture.heap": (
        "{player} captures {count} cards from column {column}: {cards}, and {heap} buried cards."
    ),
    "dudab.capture.heap.you": (
        "You capture {count} cards from column {column}: {cards}, and {heap} buried cards."
    ),
    "dudab.capture_heap": "The buried cards you captured: {cards}.",
    "dudab.keep": "{player} keeps a card.",
    "dudab.keep_card": "You keep {card}.",
    "dudab.rest.discard": "{player} puts the other cards on the discard pile: {cards}.",
    "dudab.rest.discard.you": "You put the other cards on the discard pile: {cards}.",
    "dudab.rest.pile": "{player} puts the other {count} cards on the own pile.",
    "dudab.rest.pile.one": "{player} puts the other card on the own pile.",
    "dudab.rest_cards": "You put the other cards on your own pile: {cards}.",
    "dudab.call_failed": "{player} cannot answer the call.",
    "dudab.call_failed.you": "You cannot answer the call.",
    "dudab.reveal_hand": "{player} shows the hand: {cards}.",
    "dudab.reveal_hand.you": "You show your hand: {cards}.",
    "dudab.to_pile": "{player} puts a card on the own pile.",
    "dudab.to_pile.shown": "{player} puts {card} on the own pile.",
    "dudab.to_pile.shown.you": "You put {card} on your own pile.",
    "dudab.to_pile_card": "You put {card} on your own pile.",
    "dudab.draw": "{player} draws a card.",
    "dudab.drawn_card": "You draw {card}.",
    "dudab.penalty": "{player} takes the penalty for the Shaman.",
    "dudab.penalty.you": "You take the penalty for the Shaman.",
    "dudab.penalty_reveal": "Turned onto the discard pile: {card}.",
    "dudab.jungle_drawn": "{player} draws a Jungle.",
    "dudab.jungle_drawn.you": "You draw a Jungle.",
    "dudab.jungle_laid": "{player} lays the Jungle on column {column} (cards above it: {above}).",
    "dudab.jungle_laid.you": "You lay the Jungle on column {column} (cards above it: {above}).",
    "dudab.jungle_discarded": "No column can take the Jungle: it goes to the discard pile.",
    "dudab.baby_drawn": "{player} draws a Baby.",
    "dudab.baby_drawn.you": "You draw a Baby.",
    "dudab.baby_laid": "{player} buries column {column} under the Baby ({heap} cards in the heap).",
    "dudab.baby_laid.you": "You bury column {column} under the Baby ({heap} cards in the heap).",
    "dudab.baby_cover": "Column {column} gets a new first card: {card}.",
    "dudab.baby_cover.draws": (
        "Column {column} gets a new first card, {card}: every other player draws {value}."
    ),
    "dudab.round_end": "Round {round} is over (the lowest score is best). {scores}.",
    "dudab.game_over": "The game is over; the lowest total wins. {totals}. {winners} wins.",
    "dudab.game_over.shared": (
        "The game is over; the lowest total wins. {totals}. {winners} share first place."
    ),
    # round score breakdowns (dudab §7.1)
    "dudab.score": "{player} {points} points: {parts}",
    "dudab.score.nothing": "nothing scored",
    "dudab.score.hand_dudabs": "{count} Dudabs in hand {points:+d}",
    "dudab.score.hand_dudabs.one": "1 Dudab in hand {points:+d}",
    "dudab.score.pairs": "{count} Dudab–Shaman pairs 0",
    "dudab.score.pairs.one": "1 Dudab–Shaman pair 0",
    "dudab.score.dudab_numbers": "Dudabs paired with number cards {values} {points:+d}",
    "dudab.score.jungles": "Jungles removed the number cards of value {values}",
    "dudab.score.shamans_removed": "a spare Jungle removed the Shamans",
    "dudab.score.shamans": "Shamans {points:+d}",
    "dudab.score.babies": "Babies {points:+d}",
    "dudab.score.numbers": "number cards {points:+d}",
    "dudab.total": "{player} {points} points in all (rounds: {rounds})",
    "dudab.result.win": "The lowest total wins: {winners} with {points} points.",
    # the colour letters on the cards (corners, codes): each language's own initials
    "dudab.letter.blue": "B",
    "dudab.letter.red": "R",
    "dudab.letter.yellow": "Y",
    "dudab.letter.green": "G",
    "dudab.result.tie": (
        "{players} tie on {points} points: Dudab has no tie-break, they share the place."
    ),
    "dudab.result.shared": (
        "The lowest total wins: {winners} share first place with {points} points."
    ),
    # status lines
    "dudab.status": "Dudab — round {round} of {rounds}, {draw} cards in the draw pile",
    "dudab.status.over": "Dudab — game over after {rounds} rounds",
    # prompts for the seat to act
    "dudab.prompt.turn": "Your turn: play a card on a column, or draw a card.",
    "dudab.prompt.turn.must_place": (
        "You hold 5 cards: play a card on a column (you may draw only when none fits)."
    ),
    "dudab.prompt.turn.must_draw": "No card of yours fits on a column: draw a card.",
    "dudab.prompt.turn.must_swap": (
        "None of your 5 cards fits: show your hand, put a card on your own pile and draw."
    ),
    "dudab.prompt.shaman_reaction": (
        "A Shaman was played on column {column}: play a Shaman or a Dudab on it, or take the "
        "penalty."
    ),
    "dudab.prompt.shaman_reaction.penalty": (
        "A Shaman was played on column {column}: you have no Shaman or Dudab, so take the penalty."
    ),
    "dudab.prompt.call_answer": (
        "A Dudab on column {column} calls for {call}: play a matching card or a Dudab on it."
    ),
    "dudab.prompt.call_answer.fail": (
        "A Dudab on column {column} calls for {call}: you have no matching card, so play a "
        "Dudab on it or show your hand and draw a card."
    ),
    "dudab.prompt.call_answer.fail_only": (
        "A Dudab on column {column} calls for {call}: you have no matching card, so show your "
        "hand and draw a card."
    ),
    "dudab.prompt.keep": "You captured a column: choose a card to keep (you keep 2).",
    "dudab.prompt.rest": "Put all your other cards on the discard pile, or all on your own pile.",
    "dudab.prompt.swap": "You showed your 5 cards: choose one for your own pile before you draw.",
    "dudab.prompt.trim": "You hold {count} cards: choose one for your own pile (you keep 5).",
    "dudab.prompt.jungle": "You drew a Jungle: choose the column to lay it on.",
    "dudab.prompt.baby": "You drew a Baby: choose the column to bury under it.",
    # prompts while waiting
    "dudab.wait.turn": "Waiting for {player} to play a card or draw.",
    "dudab.wait.shaman_reaction": "Waiting for {player} to answer the Shaman on column {column}.",
    "dudab.wait.call_answer": (
        "Waiting for {player} to answer the call for {call} on column {column}."
    ),
    "dudab.wait.keep": "Waiting for {player} to choose the cards to keep after the capture.",
    "dudab.wait.rest": "Waiting for {player} to choose where the other cards go.",
    "dudab.wait.swap": "Waiting for {player} to put a card of the shown hand on the own pile.",
    "dudab.wait.trim": "Waiting for {player} to put cards on the own pile (down to 5 in hand).",
    "dudab.wait.jungle": "Waiting for {player} to lay the Jungle on a column.",
    "dudab.wait.baby": "Waiting for {player} to choose the column for the Baby.",
    "dudab.over": "The game is over; the lowest total wins.",
    # progress of a multi-step choice
    "dudab.progress.keep": "kept {done} of 2 cards",
    "dudab.progress.trim": "{count} more to put on your own pile",
    # action labels
    "dudab.action.place": "Play {card} on column {column}",
    "dudab.action.dudab": "Play a Dudab on column {column} without a call",
    "dudab.action.dudab.call": "Play a Dudab on column {column} and call for {call}",
    "dudab.action.draw": "Draw a card",
    "dudab.action.draw.swap": "Show your hand, put a card on your own pile and draw",
    "dudab.action.draw.fail": "Show your hand and draw a card (no answer)",
    "dudab.action.penalty": (
        "Take the penalty: turn up cards to the first number card, then draw its value"
    ),
    "dudab.action.keep": "Keep {card}",
    "dudab.action.rest.discard": "Put all the other cards on the discard pile",
    "dudab.action.rest.pile": "Put all the other cards on your own pile",
    "dudab.action.pile": "Put {card} on your own pile",
    "dudab.action.jungle": "Lay the Jungle on column {column}",
    "dudab.action.baby": "Bury column {column} under the Baby",
    # zones, notes, facts and cards
    "dudab.zone.column": "Column {column}",
    "dudab.zone.discard": "Discard pile",
    "dudab.zone.draw": "Draw pile",
    "dudab.zone.hand": "{player}'s hand",
    "dudab.zone.kept": "{player}'s kept cards",
    "dudab.zone.pile": "{player}'s own pile",
    "dudab.zone.hand.you": "Your hand",
    "dudab.zone.kept.you": "Your kept cards",
    "dudab.zone.pile.you": "Your own pile",
    "dudab.note.heap": "{count} cards buried under a Baby",
    "dudab.note.call": "the Dudab on top calls for {call}",
    "dudab.note.shaman": "the Shaman on top must be answered",
    "dudab.note.capture": "5 cards: the next card placed captures them",
    "dudab.note.mirror": "below the Jungle: the next card mirrors {card}",
    "dudab.note.jungle_capture": "below the Jungle: the next card captures the column",
    "dudab.note.kept": "cards kept after the capture: {count}",
    "dudab.mark.shown": "shown to everyone",
    "dudab.mark.top": "top",
    "dudab.fact.hand": "hand",
    "dudab.fact.pile": "own pile",
    "dudab.fact.rounds": "rounds",
    "dudab.fact.starts": "start player",
    "dudab.fact.starts.value": "this round",
    "dudab.points": "{count} points",
    "dudab.points.one": "1 point",
    "dudab.card.number": "{colour} {symbol} {value}",
    "dudab.card.dudab": "Dudab",
    "dudab.card.shaman": "{colour} Shaman",
    "dudab.card.jungle": "Jungle",
    "dudab.card.baby": "Baby",
    "dudab.card.dudab.a": "a Dudab",
    "dudab.card.shaman.a": "a {colour} Shaman",
    "dudab.card.jungle.a": "a Jungle",
    "dudab.card.baby.a": "a Baby",
    "dudab.cards.none": "nothing",
    "dudab.call.value": "the value {value}",
    # colours and symbols (dudab §1), inserted into card names, calls and the legend
    "dudab.colour.blue": "blue",
    "dudab.colour.red": "red",
    "dudab.colour.yellow": "yellow",
    "dudab.colour.green": "green",
    "dudab.symbol.hand": "hand",
    "dudab.symbol.mammoth": "mammoth",
    "dudab.symbol.club": "club",
    "dudab.symbol.fur": "fur",
    # the legend
    "dudab.legend.number": "a Number card: colour letter, symbol letter, value (red fur 3)",
    "dudab.legend.colour": "{colour} (a card's colour)",
    "dudab.legend.symbol": "the {symbol} symbol",
    "dudab.legend.dudab": (
        "a Dudab: fits on any card; played with a call it asks for a colour, a symbol or a value"
    ),
    "dudab.legend.shaman": "a Shaman (here red): the next player must answer it",
    "dudab.legend.jungle": "a Jungle: the cards below it mirror the cards above it",
    "dudab.legend.baby": "a Baby: it buries a column under a new first card",
    "dudab.legend.columns": "the columns, in keys such as 'Rf3 c2'",
    "dudab.legend.top": "the column's top card, on which the next card is played",
}

_FACES = {name: face for face, name in enumerate(FACE_NAMES)}


def _text(message_id: str, **params: Any) -> str:
    return text(message_id, MESSAGES[message_id], **params)


def _message(message_id: str, **params: Any) -> Message:
    return Message.make(message_id, MESSAGES[message_id], **params)


def _colour_word(colour: str) -> str:
    """A colour in words, in the language in force (``blue``, ``red``, ``yellow``, ``green``)."""
    return _text(f"dudab.colour.{colour}")


def _symbol_word(symbol: str) -> str:
    """A symbol in words, in the language in force (``hand``, ``mammoth``, ``club``, ``fur``)."""
    return _text(f"dudab.symbol.{symbol}")


def face_label(name: str) -> str:
    """A card face in plain words: ``red/fur/3`` → ``red fur 3``, ``shaman/red`` → ``red Shaman``.

    >>> face_label("red/fur/3"), face_label("dudab"), face_label("shaman/green")
    ('red fur 3', 'Dudab', 'green Shaman')
    """
    face = _FACES[name]
    if face < FACE_DUDAB:
        colour, symbol, value = name.split("/")
        return _text(
            "dudab.card.number",
            colour=_colour_word(colour),
            symbol=_symbol_word(symbol),
            value=value,
        )
    if face == FACE_DUDAB:
        return _text("dudab.card.dudab")
    if face < FACE_JUNGLE:
        return _text("dudab.card.shaman", colour=_colour_word(COLOURS[face - FACE_SHAMAN]))
    return _text("dudab.card.jungle" if face == FACE_JUNGLE else "dudab.card.baby")


def _phrase(name: str) -> str:
    """A card as a sentence names it: ``red fur 3``, ``a Dudab``, ``a red Shaman``."""
    face = _FACES[name]
    if face < FACE_DUDAB:
        return face_label(name)
    if face == FACE_DUDAB:
        return _text("dudab.card.dudab.a")
    if face < FACE_JUNGLE:
        return _text("dudab.card.shaman.a", colour=_colour_word(COLOURS[face - FACE_SHAMAN]))
    return _text("dudab.card.jungle.a" if face == FACE_JUNGLE else "dudab.card.baby.a")


def _phrases(names: Sequence[str]) -> str:
    return ", ".join(_phrase(n) for n in names) or _text("dudab.cards.none")


def _letter(colour: int) -> str:
    """A colour's letter on the cards, in the language in force (``blue`` → ``B``; ``K``, kék)."""
    return _text(f"dudab.letter.{COLOURS[colour]}")


def _short(face: int) -> str:
    if face < FACE_DUDAB:
        colour, symbol, value = face // 16, (face // 4) % 4, face % 4 + 1
        return f"{_letter(colour)}{SYMBOL_LETTERS[symbol]}{value}"
    if face == FACE_DUDAB:
        return "Dud"
    if face < FACE_JUNGLE:
        return "Sh" + _letter(face - FACE_SHAMAN)
    return "Jun" if face == FACE_JUNGLE else "Bab"


def _colour(face: int) -> int:
    if face < FACE_DUDAB:
        return face // 16
    if FACE_SHAMAN <= face < FACE_JUNGLE:
        return face - FACE_SHAMAN
    return -1


#: card faces already made, by id, card, marks and language (another seat's display, the next
#: step's, shows mostly the same cards in the same places)
_FACES_KEPT = KeptParts()


def card_face(
    card_id: str, name: str, marks: tuple[str, ...] = (), owner: int | None = None
) -> CardFace:
    """The :class:`CardFace` of a face-up card called ``name`` (its notation).

    ``owner`` is the seat whose hand, kept cards or pile it lies in, or that played it on a
    column (``None``: the table's, a card nobody played).
    """
    face: CardFace = _FACES_KEPT.get(
        (card_id, name, marks, owner, current_translator()),
        lambda: _card_face(card_id, name, marks, owner),
    )
    return face


def _art(face: int) -> tuple[str, str | None]:
    """A face's pictogram and the value shown big: a number card's symbol and value."""
    if face < FACE_DUDAB:
        return SYMBOLS[(face // 4) % 4], str(face % 4 + 1)
    if face == FACE_DUDAB:
        return "imp", None
    if face < FACE_JUNGLE:
        return "shaman", None
    return ("jungle" if face == FACE_JUNGLE else "baby"), None


def _card_face(card_id: str, name: str, marks: tuple[str, ...], owner: int | None) -> CardFace:
    face = _FACES[name]
    colour = _colour(face)
    icon, rank = _art(face)
    return CardFace(
        card_id,
        face_label(name),
        _short(face),
        colour=COLOURS[colour] if colour >= 0 else None,
        symbol=_letter(colour) if colour >= 0 else None,
        marks=marks,
        icon=icon,
        rank=rank,
        owner=owner,
    )


def _call(call: str) -> str:
    """A call in words: ``yellow``, ``fur``, ``the value 3``."""
    if call.isdigit():
        return _text("dudab.call.value", value=call)
    return _colour_word(call) if call in COLOURS else _symbol_word(call)


class DudabPresenter(Presenter):
    """Dudab's columns, piles, hands, prompts, log lines and legend (dudab §1.7, §5, §7)."""

    # ----- the display -----------------------------------------------------------------------

    def display(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> Display:
        """The columns, the discard and draw piles, hands, own piles, players and actions."""
        return self._display(cast(DudabView, view), legal, names)

    def _display(self, view: DudabView, legal: Sequence[Action], names: Sequence[str]) -> Display:
        head = ViewHeader.of(view)
        seat, n, to_act, over = head.seat, head.players, head.to_act, head.over
        zones: list[Zone] = [self._column(view, k) for k in range(len(view["columns"]))]
        zones.append(self._discard(view))
        zones.append(Zone("draw", _text("dudab.zone.draw"), "hidden", count=view["draw_pile"]))
        for s in range(n):
            zones.extend(self._seat_zones(view, s, names, seat))
        hand_ids = self._hand_ids(view, seat)
        actions = tuple(
            self._choice(view, a, n, hand_ids, seat) for a in legal if isinstance(a, DudabAction)
        )
        return Display(
            game=self.game.name,
            seat=seat,
            status=self._status(view),
            prompt=self._prompt(view, seat, legal, names),
            to_act=to_act,
            players=tuple(self._panel(view, s, names, seat) for s in range(n)),
            zones=tuple(zones),
            actions=actions,
            progress=self._progress(view) if seat is not None and seat in to_act else "",
            over=over,
            result=self._result(view, names) if over else (),
        )

    def _column(self, view: DudabView, k: int) -> Zone:
        column = view["columns"][k]
        zone_id = f"col:{k + 1}"
        names = list(column["cards"])
        owners = column["owners"]  # who played each card (None: nobody, or unknown)
        cards = [
            card_face(f"{zone_id}:{i}", name, owner=owner)
            for i, (name, owner) in enumerate(zip(names, owners, strict=True))
        ]
        top = (_text("dudab.mark.top"),)
        notes = []
        if column["heap"]:
            notes.append(_text("dudab.note.heap", count=column["heap"]))
        above = column["above"]  # the cards above a Jungle (None: no Jungle)
        if above is not None:
            # dudab §4.2: the Jungle lies on the cards above it; with no card below it yet, the
            # Jungle itself is the top card
            below = len(names) - above
            marks = () if below else top
            cards.insert(
                above,
                CardFace(
                    f"{zone_id}:jungle",
                    face_label("jungle"),
                    "Jun",
                    marks=marks,
                    icon="jungle",
                    owner=column["jungle_owner"],
                ),
            )
            if below < above:  # the mirror card of the next place below the Jungle
                notes.append(_text("dudab.note.mirror", card=_phrase(names[above - below - 1])))
            else:
                notes.append(_text("dudab.note.jungle_capture"))
        if names and len(names) != above:
            cards[-1] = card_face(cards[-1].id, names[-1], top, owners[-1])
        if not column["jungle"] and len(names) == 5:  # dudab §4.3: the 6th card captures
            notes.append(_text("dudab.note.capture"))
        obligation = view["obligation"]
        if obligation is not None and obligation["column"] == k + 1:
            if obligation["kind"] == "call":
                notes.append(_text("dudab.note.call", call=_call(obligation["call"])))
            else:
                notes.append(_text("dudab.note.shaman"))
        label = _text("dudab.zone.column", column=k + 1)
        return Zone(zone_id, label, "row", tuple(cards), note="; ".join(notes))

    @staticmethod
    def _discard(view: DudabView) -> Zone:
        cards = tuple(card_face(f"discard:{i}", c) for i, c in enumerate(view["discard"]))
        label = _text("dudab.zone.discard")
        return Zone("discard", label, "stack", cards, count=len(cards))

    def _seat_zones(
        self, view: DudabView, s: int, names: Sequence[str], seat: int | None
    ) -> list[Zone]:
        player = self.name(names, s)
        you = ".you" if s == seat else ""
        hand_id, pile_id = f"hand:{s}", f"pile:{s}"
        hand_label = _text("dudab.zone.hand" + you, player=player)
        pile_label = _text("dudab.zone.pile" + you, player=player)
        revealed = view["revealed"]
        pending = view["pending"]
        kept_note = ""
        capturing = pending and pending[0]["task"] == "keep" and pending[0]["seat"] == s
        if capturing and view["kept_count"] and s != seat:
            kept_note = _text("dudab.note.kept", count=view["kept_count"])
        zones = []
        if s == seat:
            cards = tuple(
                card_face(f"{hand_id}:{i}", c, owner=s) for i, c in enumerate(view["hand"])
            )
            zones.append(Zone(hand_id, hand_label, "row", cards, owner=s, note=kept_note))
            if view["kept"]:
                kept_cards = tuple(
                    card_face(f"kept:{s}:{i}", c, owner=s) for i, c in enumerate(view["kept"])
                )
                label = _text("dudab.zone.kept" + you, player=player)
                zones.append(Zone(f"kept:{s}", label, "row", kept_cards, owner=s))
            pile = tuple(
                card_face(f"{pile_id}:{i}", c, owner=s) for i, c in enumerate(view["pile"])
            )
            zones.append(Zone(pile_id, pile_label, "row", pile, owner=s, count=len(pile)))
            return zones
        count = int(view["hand_sizes"][s])
        if revealed is not None and revealed["seat"] == s:  # dudab §5.7.2: shown to everyone
            shown = (_text("dudab.mark.shown"),)
            cards = tuple(
                card_face(f"{hand_id}:{i}", c, shown, s) for i, c in enumerate(revealed["cards"])
            )
            zones.append(Zone(hand_id, hand_label, "row", cards, owner=s, count=count))
        else:
            zones.append(Zone(hand_id, hand_label, "hidden", owner=s, count=count, note=kept_note))
        zones.append(Zone(pile_id, pile_label, "hidden", owner=s, count=int(view["pile_sizes"][s])))
        return zones

    @staticmethod
    def _hand_ids(view: DudabView, seat: int | None) -> dict[str, str]:
        """The display id of one card of each face in the seat's hand."""
        if seat is None or "hand" not in view:
            return {}
        ids: dict[str, str] = {}
        for i, name in enumerate(view["hand"]):
            ids.setdefault(name, f"hand:{seat}:{i}")
        return ids

    def _panel(
        self, view: DudabView, s: int, names: Sequence[str], seat: int | None
    ) -> PlayerPanel:
        facts = [
            (_text("dudab.fact.hand"), str(view["hand_sizes"][s])),
            (_text("dudab.fact.pile"), str(view["pile_sizes"][s])),
        ]
        rounds = view["scores"][s]
        if rounds:
            facts.append((_text("dudab.fact.rounds"), ", ".join(str(r) for r in rounds)))
        if view["phase"] != "game_over" and view["round_start_player"] == s:
            facts.append((_text("dudab.fact.starts"), _text("dudab.fact.starts.value")))
        return PlayerPanel(
            s,
            self.name(names, s),
            _points(view["totals"][s]),
            tuple(facts),
            to_act=s in view["to_act"],
            you=s == seat,
        )

    @staticmethod
    def _status(view: DudabView) -> str:
        if view["phase"] == "game_over":
            return _text("dudab.status.over", rounds=view["rounds"])
        return _text(
            "dudab.status", round=view["round"], rounds=view["rounds"], draw=view["draw_pile"]
        )

    def _prompt(
        self,
        view: DudabView,
        seat: int | None,
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> str:
        prompt = str(view["prompt"])
        if prompt == "game_over":
            return _text("dudab.over")
        ob = view["obligation"]
        column = None if ob is None else ob["column"]
        call = _call(ob["call"]) if ob is not None and "call" in ob else ""
        actor = int(view["to_act"][0])
        if seat != actor:
            return _text(
                f"dudab.wait.{prompt}", player=self.name(names, actor), column=column, call=call
            )
        kinds = {a.kind for a in legal if isinstance(a, DudabAction)}
        placing = K_PLACE in kinds
        hand = int(view["hand_sizes"][seat])
        if prompt == "turn":
            if K_DRAW not in kinds:
                return _text("dudab.prompt.turn.must_place")
            if not placing:
                key = "must_swap" if hand >= 5 else "must_draw"
                return _text(f"dudab.prompt.turn.{key}")
            return _text("dudab.prompt.turn")
        if prompt == "shaman_reaction":
            key = "" if placing else ".penalty"
            return _text(f"dudab.prompt.shaman_reaction{key}", column=column)
        if prompt == "call_answer":
            key = "" if K_DRAW not in kinds else ".fail" if placing else ".fail_only"
            return _text(f"dudab.prompt.call_answer{key}", column=column, call=call)
        return _text(f"dudab.prompt.{prompt}", count=hand)

    @staticmethod
    def _progress(view: DudabView) -> str:
        prompt = view["prompt"]
        if prompt == "keep":
            return _text("dudab.progress.keep", done=view["kept_count"])
        if prompt == "trim":
            seat = int(view["to_act"][0])
            return _text("dudab.progress.trim", count=int(view["hand_sizes"][seat]) - 5)
        return ""

    def _choice(
        self,
        view: DudabView,
        action: DudabAction,
        players: int,
        hand_ids: Mapping[str, str],
        seat: int | None,
    ) -> ActionChoice:
        kind = action.kind
        name = FACE_NAMES[action.face] if action.face >= 0 else ""
        column = action.col + 1
        if kind == K_PLACE:
            target, source = f"col:{column}", hand_ids.get(name)
            if action.face == FACE_DUDAB:
                if action.call:
                    call = CALL_NAMES[action.call]
                    label = _text("dudab.action.dudab.call", column=column, call=_call(call))
                    key = f"Dud c{column} {call}"
                    return self.choice(
                        action, players, label, target, group="call", key=key, source=source
                    )
                label = _text("dudab.action.dudab", column=column)
            else:
                label = _text("dudab.action.place", card=face_label(name), column=column)
            key = f"{_short(action.face)} c{column}"
            return self.choice(action, players, label, target, group="play", key=key, source=source)
        if kind == K_DRAW:
            if view["prompt"] == "call_answer":
                label = _text("dudab.action.draw.fail")
            elif seat is not None and int(view["hand_sizes"][seat]) >= 5:
                label = _text("dudab.action.draw.swap")
            else:
                label = _text("dudab.action.draw")
            return self.choice(action, players, label, "draw", group="draw", key="draw")
        if kind == K_PENALTY:
            label = _text("dudab.action.penalty")
            return self.choice(action, players, label, "draw", group="penalty", key="penalty")
        if kind in (K_KEEP, K_PILE):
            verb = "keep" if kind == K_KEEP else "pile"
            label = _text(f"dudab.action.{verb}", card=_phrase(name))
            key = f"{verb} {_short(action.face)}"
            return self.choice(action, players, label, hand_ids.get(name), group=verb, key=key)
        if kind in (K_JUNGLE, K_BABY):
            verb = "jungle" if kind == K_JUNGLE else "baby"
            label = _text(f"dudab.action.{verb}", column=column)
            target = f"col:{column}"
            return self.choice(action, players, label, target, group=verb, key=f"{verb} c{column}")
        # K_REST: ``call`` 1 is the own pile
        to_pile = action.call == 1
        label = _text("dudab.action.rest.pile" if to_pile else "dudab.action.rest.discard")
        target = f"pile:{seat}" if to_pile else "discard"
        key = "pile" if to_pile else "discard"
        return self.choice(action, players, label, target, group="rest", key=key)

    def _result(self, view: DudabView, names: Sequence[str]) -> tuple[str, ...]:
        lines = [
            _text(
                "dudab.total",
                player=self.name(names, s),
                points=total,
                rounds=", ".join(str(r) for r in view["scores"][s]),
            )
            for s, total in enumerate(view["totals"])
        ]
        outcome = view["outcome"]
        winners = outcome["winners"]
        key = "dudab.result.win" if len(winners) == 1 else "dudab.result.shared"
        points = view["totals"][int(winners[0])]
        for group in tied_groups(view["totals"]):
            players = and_list([self.name(names, s) for s in group])
            lines.append(
                _text("dudab.result.tie", players=players, points=view["totals"][group[0]])
            )
        lines.append(_text(key, winners=self._winners(outcome, names), points=points))
        return tuple(lines)

    def _winners(self, outcome: Mapping[str, Any], names: Sequence[str]) -> str:
        return and_list([self.name(names, int(w)) for w in outcome["winners"]])

    # ----- log lines ---------------------------------------------------------------------------

    def changes(self, events: Sequence[Event], seat: int | None) -> StepDisplay:
        """The columns, piles and hands a step changed (for highlighting)."""
        changed: list[str] = []
        for event in events:
            kind, d = event.type, event.data
            actor = d.get("seat")
            if isinstance(d.get("column"), int):
                changed.append(f"col:{d['column']}")
            if kind == "round_start":
                changed.extend(f"col:{k + 1}" for k in range(len(d["columns"])))
                changed.extend(("discard", "draw"))
            if not isinstance(actor, int):
                continue
            if kind in ("place", "draw", "keep", "reveal_hand", "deal", "jungle_drawn"):
                changed.append(f"hand:{actor}")
            if kind in ("draw", "jungle_drawn", "baby_drawn"):
                changed.append("draw")
            if kind in ("capture", "to_pile", "rest", "keep"):
                changed.append(f"pile:{actor}")
            if kind == "keep":
                changed.append(f"kept:{actor}")
            if kind == "rest" and d.get("to") == "discard":
                changed.append("discard")
        return StepDisplay(tuple(dict.fromkeys(changed)))

    def message(self, event: Event, names: Sequence[str], seat: int | None) -> Message | None:
        """The log line of ``event`` as ``seat`` reads it (one line per thing that happened).

        A seat that reads a private line about its own draw, kept card or cards moved to its own
        pile does not also read the public line about the same thing.
        """
        d = event.data
        kind = event.type
        actor = d.get("seat")
        mine = isinstance(actor, int) and actor == seat
        you = ".you" if mine else ""
        player = self.name(names, int(actor)) if isinstance(actor, int) else ""
        if kind in ("draw", "keep"):
            # the seat reads its private ``drawn_card`` / ``keep_card`` line instead
            return None if mine else _message(f"dudab.{kind}", player=player)
        if kind in ("drawn_card", "keep_card", "to_pile_card"):
            return _message(f"dudab.{kind}", card=_phrase(d["card"]))
        if kind in ("deal", "capture_heap", "rest_cards"):
            return _message(f"dudab.{kind}", cards=_phrases(d["cards"]))
        if kind == "place":
            if d["call"]:
                return _message(
                    f"dudab.place.call{you}",
                    player=player,
                    column=d["column"],
                    call=_call(d["call"]),
                )
            return _message(
                f"dudab.place{you}", player=player, card=_phrase(d["card"]), column=d["column"]
            )
        if kind == "capture":
            heap = ".heap" if d["heap"] else ""
            return _message(
                f"dudab.capture{heap}{you}",
                player=player,
                count=len(d["cards"]) + int(d["heap"]),
                column=d["column"],
                cards=_phrases(d["cards"]),
                heap=d["heap"],
            )
        if kind == "rest":
            if d["to"] == "discard":
                return _message(
                    f"dudab.rest.discard{you}", player=player, cards=_phrases(d["cards"])
                )
            one = ".one" if d["count"] == 1 else ""
            return (
                None if mine else _message(f"dudab.rest.pile{one}", player=player, count=d["count"])
            )
        if kind == "to_pile":
            if d["card"] is not None:  # after a revealed hand: public
                return _message(f"dudab.to_pile.shown{you}", player=player, card=_phrase(d["card"]))
            return None if mine else _message("dudab.to_pile", player=player)
        if kind in ("call_failed", "penalty", "jungle_drawn", "baby_drawn"):
            return _message(f"dudab.{kind}{you}", player=player)
        if kind == "reveal_hand":
            return _message(f"dudab.reveal_hand{you}", player=player, cards=_phrases(d["cards"]))
        if kind == "penalty_reveal":
            return _message("dudab.penalty_reveal", card=_phrase(d["card"]))
        if kind == "jungle_laid":
            return _message(
                f"dudab.jungle_laid{you}", player=player, column=d["column"], above=d["above"]
            )
        if kind == "jungle_discarded":
            return _message("dudab.jungle_discarded")
        if kind == "baby_laid":
            return _message(
                f"dudab.baby_laid{you}", player=player, column=d["column"], heap=d["heap"]
            )
        if kind == "baby_cover":
            face = _FACES[d["card"]]
            if face < FACE_DUDAB:  # dudab §5.7.7: a Number cover makes the others draw
                return _message(
                    "dudab.baby_cover.draws",
                    column=d["column"],
                    card=_phrase(d["card"]),
                    value=face % 4 + 1,
                )
            return _message("dudab.baby_cover", column=d["column"], card=_phrase(d["card"]))
        if kind == "round_start":
            start = int(d["start_player"])
            return _message(
                "dudab.round_start" + (".you" if start == seat else ""),
                round=d["round"],
                player=self.name(names, start),
                columns=_phrases(d["columns"]),
            )
        if kind == "round_end":
            return self._round_end(d, names)
        if kind == "game_over":
            return self._game_over(d, names)
        return None

    def _round_end(self, data: Mapping[str, Any], names: Sequence[str]) -> Message:
        lines = []
        for s, detail in enumerate(data["details"]):
            lines.append(
                _text(
                    "dudab.score",
                    player=self.name(names, s),
                    points=detail["total"],
                    parts=", ".join(_breakdown(detail)) or _text("dudab.score.nothing"),
                )
            )
        # the details go with the text as data (the breakdown), for other languages
        return _message(
            "dudab.round_end",
            round=data["round"],
            scores="; ".join(lines),
            details=data["details"],
        )

    def _game_over(self, data: Mapping[str, Any], names: Sequence[str]) -> Message:
        outcome = data["outcome"]
        totals = ", ".join(
            f"{self.name(names, s)} {points}" for s, points in enumerate(outcome["scores"])
        )
        key = "dudab.game_over" if len(outcome["winners"]) == 1 else "dudab.game_over.shared"
        return _message(key, totals=totals, winners=self._winners(outcome, names), outcome=outcome)

    # ----- legend --------------------------------------------------------------------------------

    def legend(self) -> list[LegendEntry]:
        """Every symbol of Dudab's displays."""
        number = f"{_letter(COLOURS.index('red'))}{SYMBOL_LETTERS[SYMBOLS.index('fur')]}3"
        entries = [LegendEntry(number, _text("dudab.legend.number"))]
        for i, colour in enumerate(COLOURS):
            meaning = _text("dudab.legend.colour", colour=_colour_word(colour))
            entries.append(LegendEntry(_letter(i), meaning))
        for symbol, letter in zip(SYMBOLS, SYMBOL_LETTERS, strict=True):
            meaning = _text("dudab.legend.symbol", symbol=_symbol_word(symbol))
            entries.append(LegendEntry(letter, meaning))
        for symbol, key in (
            ("Dud", "dudab"),
            ("ShR", "shaman"),
            ("Jun", "jungle"),
            ("Bab", "baby"),
            ("c1, c2, c3", "columns"),
            # the word of the card's mark, which the display shows in the language in force
            (_text("dudab.mark.top"), "top"),
        ):
            entries.append(LegendEntry(symbol, _text(f"dudab.legend.{key}")))
        return entries


def _breakdown(detail: Mapping[str, Any]) -> list[str]:
    """The parts of one player's round score (dudab §7.1), each with its points."""
    parts = []
    hand = int(detail["hand_dudabs"])
    if hand:
        one = ".one" if hand == 1 else ""
        parts.append(_text(f"dudab.score.hand_dudabs{one}", count=hand, points=5 * hand))
    pairs = int(detail["dudab_shaman_pairs"])
    if pairs:
        parts.append(_text("dudab.score.pairs" + (".one" if pairs == 1 else ""), count=pairs))
    numbers = list(detail["dudab_numbers"])
    if numbers:
        values = ", ".join(str(v) for v in numbers)
        parts.append(_text("dudab.score.dudab_numbers", values=values, points=-sum(numbers)))
    jungles = list(detail["jungle_values"])
    if jungles:
        values = ", ".join(str(v) for v in jungles)
        parts.append(_text("dudab.score.jungles", values=values))
    if detail["shamans_removed"]:
        parts.append(_text("dudab.score.shamans_removed"))
    for key, field in (("shamans", "shaman_points"), ("babies", "baby_points")):
        if detail[field]:
            parts.append(_text(f"dudab.score.{key}", points=detail[field]))
    if detail["number_points"]:
        parts.append(_text("dudab.score.numbers", points=detail["number_points"]))
    return parts


def _points(score: int) -> str:
    """A score in points ("1 point", "3 points"), counted in the language in force."""
    if score == 1:
        return _text("dudab.points.one")
    return _text("dudab.points", count=score)
