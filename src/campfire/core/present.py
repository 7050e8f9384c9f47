"""Presentation: how a game looks and speaks to a person, independent of any user interface.

A game's :class:`Presenter` turns what one seat may know — its view, its legal actions and the
events it may see — into

- a :class:`Display`: a JSON-ready display model of the table (zones of cards, the players with
  their scores, whose turn it is, a one-sentence prompt saying what the seat is asked to decide,
  and every legal action with a human label and the zone or card it acts on);
- :class:`Message` objects: one per event worth a log line, as a message id with parameters and
  an English default text (translations plug in by message id, without touching the game);
- a legend explaining every symbol the display uses;
- a :class:`StepDisplay` for each step: the ids of the cards and zones it changed (for
  highlighting), the cards it moved, and the cards it showed privately to the reading seat (a
  :class:`Reveal`, such as a peek).

Everything a user interface draws is data here: a card's pictogram (``icon``) and the value shown
big on it (``rank``), its colour, the seat that played it (``owner``); an action that is one of
several timed variants of one answer names the answer (``answer``) and its delay as a number
(``delay_ms``). No user interface reads a game's notation, codes or labels to find these.

The terminal app, the game server and the browser client draw only from these models, so a new
game needs a presenter and no change in any user interface. A presenter sees nothing but what it
is given: it never reads a state, so it cannot leak what the seat may not know.

>>> m = Message.make("demo.peek", "{player} peeks at position {position}.", player="Ann",
...                  position=12)
>>> m.text, m.to_json()["params"]
('Ann peeks at position 12.', {'player': 'Ann', 'position': 12})
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from contextvars import ContextVar, Token
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Any

from .actions import Action
from .events import Event

if TYPE_CHECKING:
    from .game import Game

__all__ = [
    "DECIDERS",
    "MESSAGES",
    "ActionChoice",
    "Answer",
    "CardFace",
    "Display",
    "GenericPresenter",
    "KeptParts",
    "LegendEntry",
    "Message",
    "PlayerPanel",
    "Presenter",
    "Reveal",
    "StepDisplay",
    "Zone",
    "and_list",
    "current_translator",
    "render_text",
    "set_translator",
    "text",
    "translation",
]

#: The core's own texts (the plain-text display, the generic presenter, a seat with no name):
#: message id → English template, translated by id like a game's ``MESSAGES``.
MESSAGES: dict[str, str] = {
    "core.player": "Player {number}",
    "core.player.you": "you",
    "core.player.out": "out",
    "core.card.face_down": "face down",
    "core.zone.face_down": "{count} face down",
    "core.zone.cards": "{count} cards",
    "core.zone.cards.one": "1 card",
    "core.zone.top": "{cards}, top: {card}",
    "core.zone.in_all": "{cards} ({count} in all)",
    "core.moves": "Moves: {moves}",
    "core.and": "{first} and {last}",
    "core.colour.red": "red",
    "core.colour.blue": "blue",
    "core.colour.yellow": "yellow",
    "core.colour.green": "green",
    "core.colour.purple": "purple",
    "core.colour.orange": "orange",
    "core.generic.zone": "Table",
    "core.generic.prompt": "Choose your move.",
    "core.generic.over": "The game is over.",
    "core.generic.wait": "Wait.",
    "core.mark.marked": "marked",
    "core.decided.clock": "The clock played for {player}: {line}",
    "core.decided.clock.you": "The clock played for you: {line}",
    "core.decided.bot": "Bot (for {player})",
    "core.decided.bot.you": "Bot (for you)",
    "core.tutorial.wrong": "That move is allowed, but it is not the one this lesson asks for:"
    " {move}.",
    "core.tutorial.illegal": "That move is not allowed now. This lesson asks for: {move}.",
    "core.tutorial.unknown": "That is no move of this game. This lesson asks for: {move}.",
    "core.tutorial.read": "Read the text first, then go on.",
}

#: Who decided a step that its seat did not choose (:meth:`Presenter.step_messages`): the
#: ``clock`` (a move made when the seat's time ran out, or a pass when a window closed) or a
#: ``bot`` playing for the seat.
DECIDERS = ("clock", "bot")


@dataclass(frozen=True)
class CardFace:
    """One thing shown on the table: a card, a tile, a token or an empty place.

    ``id`` is unique within the display (an action's ``target`` names it); ``label`` is the
    card's full human name (``""`` for a face-down card), ``short`` a code of at most four
    characters for compact displays, ``colour`` a colour name from the game's palette (``None``:
    no colour) and ``symbol`` a letter or shape that tells the colour without seeing it.

    ``icon`` names the pictogram drawn on the face, one of the user interfaces' icon set
    (``docs/web.md``, "Card faces"; ``None``: the short code is drawn instead) and ``rank`` the
    value shown big above it (``"7"``, ``"×2"``; ``None``: none). ``owner`` is the seat that
    played the card or holds it where it lies (``None``: nobody's, or not known).
    """

    id: str
    label: str = ""
    short: str = ""
    face_up: bool = True
    colour: str | None = None
    symbol: str | None = None
    #: ``True`` for an empty place (a board position with no card on it)
    empty: bool = False
    #: small notes shown with the card (``"peeked"``, ``"lifted"``, ``"+3"``)
    marks: tuple[str, ...] = ()
    icon: str | None = None
    rank: str | None = None
    owner: int | None = None


@dataclass(frozen=True)
class Zone:
    """A group of cards shown together: a board, a hand, a pile, a column, a counter.

    ``kind`` tells a user interface how to lay it out: ``grid`` (``columns`` per row),
    ``row`` (side by side), ``stack`` (only the top matters), ``hidden`` (face down: only
    ``count`` is known) or ``counter`` (a number, no cards). ``owner`` is the seat it belongs
    to (``None``: the table's).
    """

    id: str
    label: str
    kind: str = "row"
    cards: tuple[CardFace, ...] = ()
    owner: int | None = None
    count: int | None = None
    columns: int | None = None
    #: one short line under the zone (``"draw pile: 42 cards"``)
    note: str = ""


@dataclass(frozen=True)
class Answer:
    """One answer offered as timed variants: its notation without the time, label and key.

    >>> Answer("claim hunter", "Claim with your hunter", "hunter").notation
    'claim hunter'
    """

    notation: str
    label: str
    key: str = ""


@dataclass(frozen=True)
class ActionChoice:
    """One legal action, as a person would choose it.

    ``index`` is the action's number in the game's index space and ``notation`` its text;
    ``label`` says what it does (``"Peek at position 12"``); ``target`` is the id of the card or
    zone it acts on (pointing at that target chooses the action); ``group`` gathers actions of
    one kind (``"peek"``, ``"claim"``) and ``key`` is a short name a person may type.
    ``source`` is the id of the card the action moves when that is not the target (a card
    from the hand played onto the column ``target``: drag ``source`` onto ``target``).

    Several actions may be variants of one answer that differ only by when it is given (a
    claim after 0, 50, … ms): each names the :class:`Answer` they share and its own
    ``delay_ms``. A user interface offers the answer once and sends the answer's notation (a
    real-time server times it itself), or the variant whose delay is nearest the time taken.
    An action that is no such variant has ``answer`` and ``delay_ms`` ``None``.
    ``penalised`` marks an action that is legal but costs a penalty now (a "protect me" setting
    refuses it).
    """

    index: int
    notation: str
    label: str
    target: str | None = None
    group: str = ""
    key: str = ""
    source: str | None = None
    answer: Answer | None = None
    delay_ms: int | None = None
    penalised: bool = False


@dataclass(frozen=True)
class PlayerPanel:
    """One player as the table shows them: name, score, and what is publicly known."""

    seat: int
    name: str
    score: str = ""
    #: public facts, each ``(label, value)``: ``("tokens", "3")``
    facts: tuple[tuple[str, str], ...] = ()
    colour: str | None = None
    symbol: str | None = None
    to_act: bool = False
    you: bool = False
    out: bool = False


@dataclass(frozen=True)
class LegendEntry:
    """One symbol of a display and what it means."""

    symbol: str
    meaning: str


@dataclass(frozen=True)
class Reveal:
    """A card shown to one seat alone (a peek): ``card`` is its face, ``card.id`` the place.

    Only the seat it is for ever receives it: a step's reveals are made from the events that
    seat may see (:meth:`Presenter.step_display`), and every other seat's are dropped.
    """

    seat: int
    card: CardFace

    def to_json(self) -> dict[str, Any]:
        """The reveal as a JSON-ready dict (``seat``, ``card``)."""
        return {"seat": self.seat, "card": _plain(self.card)}


@dataclass(frozen=True)
class StepDisplay:
    """What one step did, as one seat may know it (the step's part of the display model).

    ``changed`` holds the ids of the cards and zones the step changed (a user interface
    highlights them until the next step), ``moved`` the ``(from, to)`` ids of cards it moved
    from one place to another, and ``reveals`` the cards it showed privately to the reader.
    """

    changed: tuple[str, ...] = ()
    moved: tuple[tuple[str, str], ...] = ()
    reveals: tuple[Reveal, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The step's display as JSON: ``changed``, ``moved`` and ``reveals`` lists."""
        return {
            "changed": list(self.changed),
            "moved": [list(m) for m in self.moved],
            "reveals": [r.to_json() for r in self.reveals],
        }


_ATOMS = frozenset({str, int, float, bool, type(None)})
#: how :func:`_plain` copies each type it has met (dataclasses: a function compiled for the class)
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def _plain(value: Any) -> Any:
    """``value`` as :func:`dataclasses.asdict` copies it (dataclasses become dicts).

    Tuples stay tuples, lists lists and dicts dicts; enum members are themselves (as a deep copy
    leaves them); anything else is deep-copied. The same result about ten times faster than
    ``asdict``, which cost about a millisecond for the display model of a full board (once per
    seat and step on the server): each dataclass gets a function of its own, compiled the first
    time it is met, that reads its fields by name and returns the plain JSON values as they are.
    """
    kind = type(value)
    if kind in _ATOMS:
        return value
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _COPIERS[kind] = _copier(kind, value)
    return copier(value)


def _plain_tuple(value: tuple[Any, ...]) -> tuple[Any, ...]:
    atoms = _ATOMS
    return tuple([v if type(v) in atoms else _plain(v) for v in value])


def _plain_list(value: list[Any]) -> list[Any]:
    atoms = _ATOMS
    return [v if type(v) in atoms else _plain(v) for v in value]


def _plain_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    atoms = _ATOMS
    return {_plain(k): v if type(v) in atoms else _plain(v) for k, v in value.items()}


def _copier(kind: type, value: Any) -> Callable[[Any], Any]:
    if kind is tuple:
        return _plain_tuple
    if kind is list:
        return _plain_list
    if kind is dict:
        return _plain_dict
    if isinstance(value, Enum):
        return lambda v: v
    if not is_dataclass(value):
        return lambda v: asdict(_Box(v))["value"]  # subclasses, other types: as asdict does
    names = [f.name for f in fields(value)]
    reads = "".join(f"    x{i} = v.{name}\n" for i, name in enumerate(names))
    items = ", ".join(
        f"{name!r}: x{i} if type(x{i}) in A else P(x{i})" for i, name in enumerate(names)
    )
    namespace: dict[str, Any] = {"A": _ATOMS, "P": _plain}
    exec(f"def copy(v):\n{reads}    return {{{items}}}\n", namespace)
    copy: Callable[[Any], Any] = namespace["copy"]
    return copy


@dataclass(frozen=True)
class _Box:
    value: Any


@dataclass(frozen=True)
class Display:
    """Everything a user interface draws for one seat at one moment (JSON-ready).

    ``prompt`` is one sentence saying what the seat is asked to decide now, or what it waits
    for; ``status`` names the stage of the game in plain words (``"Round 2 of 3"``);
    ``progress`` reports a multi-step choice in progress (``"picked 3 of 8"``).
    """

    game: str
    seat: int | None
    status: str
    prompt: str
    to_act: tuple[int, ...]
    players: tuple[PlayerPanel, ...]
    zones: tuple[Zone, ...]
    actions: tuple[ActionChoice, ...] = ()
    progress: str = ""
    over: bool = False
    #: at the end: one line per player with the final score and how it was made
    result: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The display model as a JSON-ready dict (what ``dataclasses.asdict`` gives, faster)."""
        out: dict[str, Any] = _plain(self)
        return out

    def zone(self, zone_id: str) -> Zone:
        """The zone called ``zone_id`` (``KeyError`` if there is none)."""
        for zone in self.zones:
            if zone.id == zone_id:
                return zone
        raise KeyError(zone_id)

    def actions_on(self, target: str) -> list[ActionChoice]:
        """The legal actions that act on ``target`` (a card or zone id)."""
        return [a for a in self.actions if a.target == target]


@dataclass(frozen=True)
class Message:
    """One line of the game log: a message id, its parameters, and the English text.

    The id (``"demo.peek"``) names a sentence with placeholders; ``params`` fill them. A
    translation replaces the English template found under the same id; ``text`` is the English
    sentence, ready to show.
    """

    id: str
    params: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    #: the English template the text was made from (translations are keyed by ``id``)
    template: str = ""

    @classmethod
    def make(cls, message_id: str, template: str, **params: Any) -> Message:
        """A message whose text is ``template`` filled with ``params`` (in the current language).

        The text is :func:`text` of the id: the translation in force (:func:`translation`), or
        the English ``template`` itself.
        """
        return cls(message_id, dict(params), text(message_id, template, **params), template)

    def to_json(self) -> dict[str, Any]:
        """The message as a JSON-ready dict (``id``, ``params``, ``text``)."""
        return {"id": self.id, "params": dict(self.params), "text": self.text}


#: translates ``(message id, English template, parameters)`` into the text to show
Translator = Callable[[str, str, Mapping[str, Any]], str]

_TRANSLATOR: ContextVar[Translator | None] = ContextVar("campfire_translator", default=None)


def text(message_id: str, template: str, **params: Any) -> str:
    """The text of message ``message_id`` in the language in force (English: ``template``).

    Presenters make every string a person reads through this function (or :meth:`Message.make`),
    with a stable id and the English template, so that a translation can replace it by id.

    >>> text("x.hello", "Hello, {name}!", name="Ann")
    'Hello, Ann!'
    >>> with translation(lambda mid, tpl, p: "Szia, {name}!".format(**p)):
    ...     text("x.hello", "Hello, {name}!", name="Ann")
    'Szia, Ann!'
    """
    translate = _TRANSLATOR.get()
    if translate is None:
        return template.format(**params)
    return translate(message_id, template, params)


def current_translator() -> Translator | None:
    """The translator in force in this context (``None``: English).

    Presenters that keep texts they made key them by it, so each language has its own.
    """
    return _TRANSLATOR.get()


class _Translation:
    """The block of :func:`translation` (a plain class: cheaper than a generator's block)."""

    __slots__ = ("_token", "_translate")

    def __init__(self, translate: Translator | None) -> None:
        self._translate = translate
        self._token: Token[Translator | None] | None = None

    def __enter__(self) -> None:
        translate = self._translate
        if _TRANSLATOR.get() != translate:  # already in force (a block within one): nothing
            self._token = _TRANSLATOR.set(translate)

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _TRANSLATOR.reset(self._token)
            self._token = None


def translation(translate: Translator | None) -> AbstractContextManager[None]:
    """Make ``translate`` the translator in force within the block (``None``: English).

    The translator is a context variable: each thread and each asyncio task (a server's
    connection) has its own, so players in different languages can share a process. A block
    whose translator is the one in force already (equal: the same catalog's bound method)
    changes nothing, so a caller may open one block around many that open it again.
    """
    return _Translation(translate)


def set_translator(translate: Translator | None) -> None:
    """Make ``translate`` the translator of the current context from now on (an app's language)."""
    _TRANSLATOR.set(translate)


@dataclass(frozen=True)
class ViewHeader:
    """The keys every game's view shares: the reader's seat, the player count, who acts, the end.

    >>> ViewHeader.of({"seat": 1, "players": 3, "to_act": [0], "phase": "game_over"})
    ViewHeader(seat=1, players=3, to_act=(0,), over=True)
    """

    seat: int | None
    players: int
    to_act: tuple[int, ...]
    over: bool

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> ViewHeader:
        """Read the shared keys of ``view`` (a spectator's seat is ``None``)."""
        seat = view.get("seat")
        return cls(
            seat if isinstance(seat, int) else None,
            int(view["players"]),
            tuple(int(s) for s in view["to_act"]),
            view["phase"] == "game_over",
        )


class Presenter(ABC):
    """How one game looks to a person: display models, log messages and a legend.

    A presenter is given only what one seat may know (its view, its legal actions, the events it
    may see) and the players' names; it never sees a state.
    """

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        #: the play mode the displays are drawn for (one of the game's ``play_modes``, set by the
        #: caller before :meth:`display`): a presenter may word its prompts for it (a timed
        #: answer measured by the server asks only which answer, never how fast)
        self.play_mode = "turns"

    @abstractmethod
    def display(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> Display:
        """The display model of ``view`` (a seat's or the spectator's) with its legal actions."""

    @abstractmethod
    def message(self, event: Event, names: Sequence[str], seat: int | None) -> Message | None:
        """The log line of ``event`` as ``seat`` reads it (``None``: nothing worth a line)."""

    @abstractmethod
    def legend(self) -> list[LegendEntry]:
        """Every symbol the displays of this game use, with its meaning."""

    def messages(
        self, events: Sequence[Event], names: Sequence[str], seat: int | None
    ) -> list[Message]:
        """The log lines of ``events`` (which ``seat`` may see), in order."""
        out = []
        for event in events:
            message = self.message(event, names, seat)
            if message is not None:
                out.append(message)
        return out

    def step_messages(
        self,
        events: Sequence[Event],
        names: Sequence[str],
        seat: int | None,
        mover: int,
        decided_by: str | None = None,
    ) -> list[Message]:
        """The log lines of one step of ``mover`` as ``seat`` reads them, saying who decided it.

        ``decided_by`` is ``None`` when the mover chose the step, else one of :data:`DECIDERS`.
        Then the line of the mover's own action (the first line the mover would read as its
        own, a ``.you`` message id) is not worded as the reader's own even when the reader is the
        mover: it is the game's line about the player by name (as a spectator reads it), with
        the bot named as the player (``"Bot (for Ann) plays …"``) or the clock's words before it
        (``"The clock played for you: Ann plays …"``). The games' own texts stay as they are.
        A public line the mover does not read (it reads a private line about the same thing
        instead, such as the card it drew) counts as the line of its action too: the mover reads
        it here, then its private line.
        """
        if decided_by not in DECIDERS:
            return self.messages(events, names, seat)
        who = self.name(names, mover)
        yours = ".you" if seat == mover else ""
        told = [self.name(names, s) for s in range(max(len(names), mover + 1))]
        if decided_by == "bot":
            told[mover] = _core(f"core.decided.bot{yours}", player=who)
        out: list[Message] = []
        done = False
        for event in events:
            message = self.message(event, names, seat)
            if not done:
                own = self.message(event, names, mover)
                if (own is not None and own.id.endswith(".you")) or (
                    own is None and self.message(event, names, None) is not None
                ):
                    done = True
                    line = self.message(event, told, None if seat == mover else seat)
                    if line is None or line.id.endswith(".you"):
                        line = message
                    if line is None:  # a line this reader does not read
                        continue
                    if decided_by == "clock":
                        key = f"core.decided.clock{yours}"
                        message = Message(
                            key,
                            {"player": who, "line": line.text, "message": line.to_json()},
                            _core(key, player=who, line=line.text),
                            MESSAGES[key],
                        )
                    else:
                        message = line
            if message is not None:
                out.append(message)
        return out

    def choice(
        self,
        action: Action,
        players: int,
        label: str,
        target: str | None = None,
        *,
        group: str = "",
        key: str = "",
        source: str | None = None,
        answer: Answer | None = None,
        delay_ms: int | None = None,
        penalised: bool = False,
    ) -> ActionChoice:
        """An :class:`ActionChoice` for ``action`` (its index and notation filled in)."""
        index = self.game.action_index(action, players)
        return ActionChoice(
            index, str(action), label, target, group, key, source, answer, delay_ms, penalised
        )

    def step_display(self, events: Sequence[Event], seat: int | None) -> StepDisplay:
        """What ``events`` (one step, those ``seat`` may see) changed, moved and showed it.

        A game overrides :meth:`changes`; this keeps only the reveals meant for ``seat`` (a
        spectator gets none), whatever the game returns.
        """
        made = self.changes(events, seat)
        if not made.reveals:
            return made
        reveals = tuple(r for r in made.reveals if seat is not None and r.seat == seat)
        if len(reveals) != len(made.reveals):
            made = StepDisplay(made.changed, made.moved, reveals)
        return made

    def changes(self, events: Sequence[Event], seat: int | None) -> StepDisplay:
        """The game's :class:`StepDisplay` of ``events`` for ``seat`` (default: nothing)."""
        return StepDisplay()

    def reveal(
        self,
        display: Display,
        shown: Mapping[str, CardFace],
        marked: Collection[str] = (),
    ) -> Display:
        """``display`` with the cards the seat is looking at now (``shown``, by id) face up.

        ``shown`` holds the faces of the reveals on screen (a user interface keeps each for a
        while); ``marked`` lists card ids to mark (a learning mode). The display itself never
        holds a card the seat may not see; only the interface that was shown it overlays it.
        """
        if not shown and not marked:
            return display
        mark = _core("core.mark.marked")
        zones = []
        for zone in display.zones:
            cards = []
            for card in zone.cards:
                face = shown.get(card.id)
                if face is not None and not card.empty:
                    card = replace(face, id=card.id)
                elif card.id in marked and not card.empty and mark not in card.marks:
                    card = replace(card, marks=(*card.marks, mark))
                cards.append(card)
            zones.append(replace(zone, cards=tuple(cards)))
        return replace(display, zones=tuple(zones))

    @staticmethod
    def name(names: Sequence[str], seat: int) -> str:
        """A player's name (``"Player N"`` when none is known).

        A message about the reader's own action uses its own id (``"demo.peek.you"``), so that
        every language can word it ("You peek", not "You peeks").
        """
        return names[seat] if 0 <= seat < len(names) else _core("core.player", number=seat + 1)


class GenericPresenter(Presenter):
    """The presenter of a game that has none of its own: its view as facts, notation as labels.

    It lets any registered game be played in every user interface, plainly.
    """

    def display(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> Display:
        """Players from ``names``, one zone of the view's public facts, actions by notation."""
        seat = view.get("seat")
        to_act = tuple(int(s) for s in view.get("to_act", ()))
        players = tuple(
            PlayerPanel(s, self.name(names, s), to_act=s in to_act, you=s == seat)
            for s in range(int(view.get("players", len(names))))
        )
        facts = tuple(
            CardFace(f"fact:{key}", f"{key}: {value}", str(value)[:4])
            for key, value in view.items()
            if key not in ("game", "seat", "players", "to_act")
        )
        n = len(players)
        actions = tuple(self.choice(a, n, str(a), key=str(a)) for a in legal)
        over = not to_act
        key = "prompt" if legal else ("over" if over else "wait")
        prompt = _core(f"core.generic.{key}")
        return Display(
            game=self.game.name,
            seat=seat if isinstance(seat, int) else None,
            status=self.game.title,
            prompt=prompt,
            to_act=to_act,
            players=players,
            zones=(Zone("view", _core("core.generic.zone"), "row", facts),),
            actions=actions,
            over=over,
        )

    def message(self, event: Event, names: Sequence[str], seat: int | None) -> Message | None:
        """The event's type and data, as they are."""
        text = f"{event.type}: " + ", ".join(f"{k}={v}" for k, v in event.data.items())
        return Message(f"{self.game.name}.{event.type}", dict(event.data), text.rstrip(": "))

    def legend(self) -> list[LegendEntry]:
        """No symbols of its own."""
        return []


def _core(message_id: str, **params: Any) -> str:
    """The core's text ``message_id`` (a key of :data:`MESSAGES`) in the language in force."""
    return text(message_id, MESSAGES[message_id], **params)


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: a list in a sentence, its "and" in the language in force.

    >>> and_list(["Ann"]), and_list(["Ann", "Bob", "Cid"])
    ('Ann', 'Ann, Bob and Cid')
    """
    if len(items) <= 1:
        return "".join(items)
    return _core("core.and", first=", ".join(items[:-1]), last=items[-1])


# ----- plain text ---------------------------------------------------------------------------


def _card_text(card: CardFace, compact: bool = False) -> str:
    if card.empty:  # an empty place, or one that shows only its code (a board's centre)
        text = card.short or "·"
    elif not card.face_up and not card.label:
        text = card.short or _core("core.card.face_down")
    else:
        text = (card.short or card.label) if compact else (card.label or card.short)
    if card.marks and not compact:
        text += f" ({', '.join(card.marks)})"
    return text


def _zone_lines(zone: Zone) -> list[str]:
    label = zone.label
    if zone.kind == "counter":
        lines = [f"  {label}: {zone.count if zone.count is not None else len(zone.cards)}"]
    elif zone.kind == "hidden" and not zone.cards:
        lines = [f"  {label}: {_core('core.zone.face_down', count=zone.count or 0)}"]
    elif zone.kind == "grid" and zone.columns:
        cells = [_card_text(c, compact=True) for c in zone.cards]
        width = max((len(c) for c in cells), default=1)
        lines = [f"  {label}:"]
        for start in range(0, len(cells), zone.columns):
            row = cells[start : start + zone.columns]
            lines.append("    " + " ".join(c.rjust(width) for c in row))
    elif zone.kind == "stack":
        n = zone.count if zone.count is not None else len(zone.cards)
        text = _core("core.zone.cards.one") if n == 1 else _core("core.zone.cards", count=n)
        if zone.cards:
            text = _core("core.zone.top", cards=text, card=_card_text(zone.cards[-1]))
        lines = [f"  {label}: {text}"]
    else:
        text = ", ".join(_card_text(c) for c in zone.cards) or "—"
        if zone.count is not None and zone.count != len(zone.cards):
            text = _core("core.zone.in_all", cards=text, count=zone.count)
        lines = [f"  {label}: {text}"]
    if zone.note:
        lines.append(f"    {zone.note}")
    return lines


def _player_line(player: PlayerPanel) -> str:
    tags = [_core(f"core.player.{t}") for t, on in (("you", player.you), ("out", player.out)) if on]
    if player.colour:
        key = f"core.colour.{player.colour}"
        colour = _core(key) if key in MESSAGES else player.colour
        tags.insert(0, colour + (f" {player.symbol}" if player.symbol else ""))
    text = ("> " if player.to_act else "  ") + player.name
    if tags:
        text += f" ({', '.join(tags)})"
    parts = [player.score] if player.score else []
    parts.extend(f"{label} {value}" for label, value in player.facts)
    return text + (": " + "; ".join(parts) if parts else "")


def render_text(display: Display, *, actions: bool = False) -> str:
    """A plain-text picture of ``display``: status, zones, players, progress, prompt, result.

    A player to act is marked ``>``; with ``actions`` the legal actions are listed with their
    keys. Every game's ``State.render(seat)`` is this text of its presenter's display.

    >>> d = Display("demo", 0, "Round 1 of 2", "Choose a card to play.", (0,),
    ...             (PlayerPanel(0, "Ann", "3 points", you=True, to_act=True),),
    ...             (Zone("hand", "Your hand", cards=(CardFace("c1", "ace of hearts"),)),))
    >>> print(render_text(d))
    Round 1 of 2
      Your hand: ace of hearts
    > Ann (you): 3 points
    Choose a card to play.
    """
    lines = [display.status]
    for zone in display.zones:
        lines.extend(_zone_lines(zone))
    lines.extend(_player_line(p) for p in display.players)
    if display.progress:
        lines.append(f"({display.progress})")
    lines.append(display.prompt)
    if actions and display.actions:
        moves = "; ".join(f"{a.key or a.notation}: {a.label}" for a in display.actions)
        lines.append(_core("core.moves", moves=moves))
    lines.extend(display.result)
    return "\n".join(lines)


class KeptParts:
    """Parts of display models already made, kept by everything each is made from.

    Display parts are immutable, so the next display that needs one (another seat's at the same
    step, the next step's) can take it as it is: the server builds a display per seat and
    language at every step, and most parts are the same for all of them. The key must hold
    everything the part depends on, the language too (:func:`current_translator`); a key that
    cannot be hashed keeps nothing. At ``size`` parts, all are forgotten at once.

    >>> kept = KeptParts(size=2)
    >>> kept.get(("a", 1), lambda: ["made"]) is kept.get(("a", 1), lambda: ["again"])
    True
    >>> kept.get(([],), lambda: "unhashable key: made, not kept")
    'unhashable key: made, not kept'
    """

    def __init__(self, size: int = 20_000) -> None:
        self.size = size
        self._parts: dict[tuple[Any, ...], Any] = {}

    def get(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """The part kept under ``key``, made by ``make`` (and kept) if there is none."""
        parts = self._parts
        try:
            return parts[key]
        except KeyError:
            pass
        except TypeError:  # a key that cannot be hashed (a translator that cannot be a key)
            return make()
        if len(parts) >= self.size:
            parts.clear()
        made = parts[key] = make()
        return made

    def clear(self) -> None:
        """Forget every part."""
        self._parts.clear()
