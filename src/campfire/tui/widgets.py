"""The game screen's widgets, each drawn only from a presenter's display model or messages.

- :class:`Board`: the display's zones, each card in its colour with its letter (readable
  without colour), the cards and zones that can be chosen underlined and clickable, the one
  under the pointer (arrow keys) in reverse, and the cards and zones the last steps changed
  (the presenter's step displays) in bold on a dark tint (:data:`CHANGED_STYLE`);
- :class:`Players`: one line per player (colour and letter, score, to act);
- :class:`StatusBar`: the game's stage, the progress of a multi-step choice, timers, a spinner
  while a bot thinks, and the prompt;
- :class:`Choices`: the actions offered now, each with the key to type;
- :class:`GameLog`: every log line, newest at the bottom, with scrollback;
- :class:`MoveInput`: type a move's key with completion; arrows point at the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.color import Color, ColorParseError
from textual.content import Content
from textual.markup import escape
from textual.suggester import SuggestFromList
from textual.widgets import Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from campfire.core.present import ActionChoice, CardFace, Display, PlayerPanel, Zone
from campfire.i18n import _

__all__ = [
    "CHANGED_STYLE",
    "SPINNER",
    "Board",
    "Choices",
    "GameLog",
    "MoveInput",
    "Players",
    "StatusBar",
    "colour_style",
]

#: The frames of the "bot is thinking" spinner.
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

#: How a card or zone label the last steps changed is drawn (bold reads without colour too).
CHANGED_STYLE = "bold on #4a4400"

#: Palette names of the presenters → terminal colours that read on a dark background.
_COLOURS = {
    "red": "#ff5f5f",
    "blue": "#5fafff",
    "yellow": "#ffd75f",
    "green": "#5fd75f",
    "purple": "#d787ff",
    "orange": "#ffaf5f",
    "white": "#e4e4e4",
    "black": "#8a8a8a",
}


def colour_style(colour: str | None) -> str:
    """A markup style for a palette colour name (``""``: none or unknown).

    >>> colour_style("red"), colour_style(None), colour_style("no-such-colour")
    ('#ff5f5f', '', '')
    """
    if not colour:
        return ""
    if colour in _COLOURS:
        return _COLOURS[colour]
    try:
        Color.parse(colour)
    except ColorParseError:
        return ""
    return colour


def card_text(card: CardFace) -> str:
    """A card's compact text: its short name (with its colour letter if the name lacks it).

    The presenter's marks are not read here (they are words of the reader's language): the
    short code says what a compact display needs (``*12`` peeked, ``^12`` being moved).
    """
    if card.empty:
        return "·"
    text = card.short or card.label or ("▒" if not card.face_up else "?")
    if card.symbol and card.colour and card.symbol not in text:
        text = f"{card.symbol}:{text}"
    return text


@dataclass(frozen=True)
class Spot:
    """A place on the board that can be pointed at: its id, zone number and grid cell."""

    id: str
    zone: int
    row: int
    col: int


class _Drawn(Static):
    """Text laid out again only when its markup changes (the screen redraws ten times a second)."""

    _markup = ""

    def draw(self, markup: str) -> None:
        """Show ``markup`` unless it is what is on show already."""
        if markup != self._markup:
            self._markup = markup
            self.update(Content.from_markup(markup))


class Board(_Drawn):
    """The table: every zone of the display; pointable cards are underlined and clickable."""

    def __init__(self, *, id: str) -> None:
        super().__init__("", id=id)
        #: the places that can be pointed at, in reading order
        self.spots: list[Spot] = []
        #: the plain text on show (for tests and the size check)
        self.text = ""
        #: the ids of the cards and zones on show drawn as changed (for tests)
        self.marked: list[str] = []
        self._changed: set[str] = set()

    def show(
        self,
        display: Display,
        pointable: Iterable[str] = (),
        cursor: str | None = None,
        selected: str | None = None,
        changed: Iterable[str] = (),
    ) -> None:
        """Draw ``display``; ``pointable`` ids are clickable, ``cursor`` and ``selected`` marked.

        The cards and zones whose ids are in ``changed`` (what the last steps changed, from
        the presenter's :class:`~campfire.core.present.StepDisplay`) are drawn in
        :data:`CHANGED_STYLE`.
        """
        can = set(pointable)
        self._changed = set(changed)
        lines: list[str] = []
        plain: list[str] = []
        spots: list[Spot] = []
        self.marked = []
        for number, zone in enumerate(display.zones):
            self._zone(zone, number, can, cursor, selected, lines, plain, spots)
        self.spots = spots
        self.text = "\n".join(plain)
        self.draw("\n".join(lines))

    def _card(self, card: CardFace, can: set[str], cursor: str | None, selected: str | None) -> str:
        text = escape(card_text(card))
        style = colour_style(card.colour)
        if not card.face_up and not card.empty:
            style = (style + " dim").strip()
        if card.id in self._changed:
            style = f"{style} {CHANGED_STYLE}".strip()
            self.marked.append(card.id)
        if card.id in can:
            style = (style + " underline").strip()
        if card.id == selected:
            style = (style + " bold on #005f00").strip()
        if card.id == cursor:
            style = (style + " reverse").strip()
        if style:
            text = f"[{style}]{text}[/]"
        if card.id in can:
            text = f"[@click=screen.point_at('{card.id}')]{text}[/]"
        return text

    def _zone(
        self,
        zone: Zone,
        number: int,
        can: set[str],
        cursor: str | None,
        selected: str | None,
        lines: list[str],
        plain: list[str],
        spots: list[Spot],
    ) -> None:
        label = escape(zone.label)
        changed = zone.id in self._changed
        if changed:
            self.marked.append(zone.id)
        head = f"[{CHANGED_STYLE if changed else 'bold'}]{label}[/]"
        if zone.id in can:
            style = "bold underline" + (" reverse" if zone.id == cursor else "")
            if changed:
                style = f"{style} {CHANGED_STYLE}"
            head = f"[@click=screen.point_at('{zone.id}')][{style}]{label}[/][/]"
            spots.append(Spot(zone.id, number, len(lines), 0))
        count = zone.count if zone.count is not None else len(zone.cards)
        note = f" — {escape(zone.note)}" if zone.note else ""
        if zone.kind == "counter" or (zone.kind == "hidden" and not zone.cards):
            suffix = " " + _("face down") if zone.kind == "hidden" else ""
            lines.append(f"{head}: {count}{suffix}{note}")
            plain.append(f"{zone.label}: {count}{suffix}")
            return
        if zone.kind == "grid" and zone.columns:
            width = max((len(card_text(c)) for c in zone.cards), default=1)
            lines.append(f"{head}{note}")
            plain.append(zone.label)
            for start in range(0, len(zone.cards), zone.columns):
                row = zone.cards[start : start + zone.columns]
                cells, texts = [], []
                for col, card in enumerate(row):
                    pad = " " * (width - len(card_text(card)) + 1)
                    cells.append(pad + self._card(card, can, cursor, selected))
                    texts.append(pad + card_text(card))
                    if card.id in can:
                        spots.append(Spot(card.id, number, len(lines), col))
                lines.append(" " + "".join(cells))
                plain.append(" " + "".join(texts))
            return
        if not zone.cards:
            lines.append(f"{head}: —{note}")
            plain.append(f"{zone.label}: —")
            return
        more = " " + _("({count} in all)").format(count=count) if count != len(zone.cards) else ""
        cells = []
        for col, card in enumerate(zone.cards):
            cells.append(self._card(card, can, cursor, selected))
            if card.id in can:
                spots.append(Spot(card.id, number, len(lines), col))
        lines.append(f"{head}: {' '.join(cells)}{more}{note}")
        plain.append(f"{zone.label}: {' '.join(card_text(c) for c in zone.cards)}{more}")

    def move(self, current: str | None, direction: str) -> str | None:
        """The spot next to ``current`` in ``direction`` (``left right up down``)."""
        if not self.spots:
            return None
        ids = [s.id for s in self.spots]
        if current not in ids:
            return ids[0]
        here = self.spots[ids.index(current)]
        if direction in ("left", "right"):
            step = -1 if direction == "left" else 1
            return ids[(ids.index(current) + step) % len(ids)]
        rows = sorted({s.row for s in self.spots})
        at = rows.index(here.row) + (-1 if direction == "up" else 1)
        if not 0 <= at < len(rows):
            return current
        row = [s for s in self.spots if s.row == rows[at]]
        return min(row, key=lambda s: (abs(s.col - here.col), s.col)).id


class Players(_Drawn):
    """One line per player: to act, name, colour letter, score, what is public."""

    def show(self, players: Sequence[PlayerPanel]) -> None:
        """Draw the players."""
        lines = []
        for p in players:
            mark = "▶" if p.to_act else " "
            name = escape(p.name)
            style = colour_style(p.colour)
            if p.symbol:
                name = f"{name} [{escape(p.symbol)}]"
            if style:
                name = f"[{style}]{name}[/]"
            if p.you:
                name = f"[bold]{name}[/]"
            extra = " " + _("(out)") if p.out else ""
            score = f" {escape(p.score)}" if p.score else ""
            lines.append(f"{mark}{name}{extra}{score}")
        self.draw("\n".join(lines))


class StatusBar(Static):
    """Two lines: the stage, progress and timers; then the prompt (or what the table waits for)."""

    #: the plain text on show (for tests)
    text = ""

    def show(self, head: str, prompt: str) -> None:
        """Show ``head`` and ``prompt``."""
        text = f"{head}\n{prompt}"
        if text != self.text:
            self.text = text
            self.update(Content.from_markup(f"[bold]{escape(head)}[/]\n{escape(prompt)}"))


class Choices(OptionList):
    """The actions offered now: the key to type, then what the action does."""

    def show(self, choices: Sequence[ActionChoice]) -> None:
        """List ``choices`` (redrawn only when they change)."""
        items = [(c.key or c.notation, c.label or c.notation) for c in choices]
        if items == getattr(self, "_items", None):
            return
        self._items = items
        self.clear_options()
        self.add_options(
            [Option(Content(f"{key}  {label}"), id=str(i)) for i, (key, label) in enumerate(items)]
        )
        if items:
            self.highlighted = 0


class GameLog(RichLog):
    """Every line of the seat's log, newest at the bottom, scrollable (``PgUp``/``PgDn``)."""

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id, wrap=True, max_lines=500, markup=False, auto_scroll=True)
        #: the lines written (for tests and for redrawing after a resize)
        self.written: list[str] = []

    def add(self, lines: Iterable[str]) -> None:
        """Write ``lines`` at the bottom and scroll to the newest."""
        for line in lines:
            self.written.append(line)
            self.write(line, scroll_end=True)
        del self.written[:-500]

    def reset(self, lines: Iterable[str]) -> None:
        """Show only ``lines`` (another seat's log, in hot seat).

        Written as one text: a log of hundreds of lines is laid out once, not line by line
        (each hand-over in hot seat resets the log twice).
        """
        self.clear()
        self.written = list(lines)[-500:]
        if self.written:
            self.write("\n".join(self.written), scroll_end=True)


class MoveInput(Input):
    """Type a move's key; ``Tab`` completes (the screen's bindings send arrows to the board)."""

    def __init__(self, *, id: str) -> None:
        super().__init__(
            placeholder=_("type a move (Tab completes) · arrows point · Enter chooses"),
            id=id,
            compact=True,
            suggester=SuggestFromList([], case_sensitive=False),
        )
        self._keys: list[str] = []

    def set_keys(self, keys: Sequence[str]) -> None:
        """Complete from ``keys``."""
        words = list(dict.fromkeys(k for k in keys if k))
        if words != self._keys:
            self._keys = words
            self.suggester = SuggestFromList(words, case_sensitive=False)

    def completion(self) -> str | None:
        """The first key (in the list's order) that begins with the typed text, ignoring case.

        ``None`` if no key does, or nothing is typed.

        Read from the keys at once, not from the suggestion on show, which Textual fills in a
        moment after each key press: a quick ``Tab`` must complete what was typed all the same.
        """
        text = self.value.strip().casefold()
        if not text:
            return None
        return next((k for k in self._keys if k.casefold().startswith(text)), None)

    def complete(self) -> bool:
        """Complete the typed text to :meth:`completion`; ``False`` if that adds nothing."""
        key = self.completion()
        if key is None or key.casefold() == self.value.strip().casefold():
            return False
        self.value = key
        self.cursor_position = len(self.value)
        return True
