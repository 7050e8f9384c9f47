"""Game records and replay.

A :class:`Record` is the versioned JSON document of one game (see ``docs/records.md``). A
:class:`Match` is a game in progress together with its history; :func:`replay` rebuilds a match
from a record, verifying every action.

>>> from campfire import all_games
>>> match = Match(all_games()[0], 2, seed=1)
>>> seat = match.state.seats_to_act()[0]
>>> action = match.state.legal_actions(seat)[0]
>>> events = match.play(seat, str(action))
>>> rec = match.record()
>>> rec.actions[0][1] == str(action)
True
>>> replay(Record.from_json(rec.to_json())).state.position_equal(match.state)
True
"""

from __future__ import annotations

import datetime
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .actions import Action
from .errors import CampfireError, ErrorText, OptionError, RecordError
from .events import Event
from .game import Game
from .options import Options
from .outcome import Outcome
from .state import State
from .validate import (
    MAX_JSON_BYTES,
    JsonReader,
    check_seed,
    decode_text,
    loads_json,
    read_bytes,
    short_repr,
)

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_META_BYTES",
    "Match",
    "Player",
    "Record",
    "replay",
    "replay_file",
    "replay_text",
]

FORMAT = "campfire-record"
FORMAT_VERSION = 1
#: A record's ``meta`` is kept only if it is at most this large, written as compact JSON (1 MiB):
#: replay never uses it, and what Campfire writes there is a few lines.
MAX_META_BYTES = 2**20


@dataclass(frozen=True)
class Player:
    """A player of a recorded game: a display name and, for a computer player, its agent."""

    name: str
    agent: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the player as a JSON-ready dict."""
        return (
            {"name": self.name} if self.agent is None else {"name": self.name, "agent": self.agent}
        )


@dataclass
class Record:
    """The JSON record of one game (finished or not).

    Exactly one of ``seed`` and ``setup`` describes the initial position. With a setup, ``seed``
    may still be given: it seeds the game's generator for randomness after the setup.
    """

    game: str
    players: list[Player]
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    setup: dict[str, Any] | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    outcome: Outcome | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Return the record as a JSON-ready dict."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": self.game,
            "options": dict(self.options),
            "players": [p.to_json() for p in self.players],
        }
        if self.seed is not None:
            out["seed"] = self.seed
        if self.setup is not None:
            out["setup"] = self.setup
        out["actions"] = [[seat, text] for seat, text in self.actions]
        out["outcome"] = self.outcome.to_json() if self.outcome is not None else None
        if self.meta:
            out["meta"] = dict(self.meta)
        return out

    def dumps(self) -> str:
        """Return the record as JSON text: one field per line, one action per line."""
        data = self.to_json()
        parts = []
        for key, value in data.items():
            if key == "actions":
                rows = ",\n  ".join(json.dumps(a, ensure_ascii=False) for a in value)
                text = "[\n  " + rows + "\n ]" if rows else "[]"
            else:
                text = json.dumps(value, ensure_ascii=False)
            parts.append(f" {json.dumps(key)}: {text}")
        return "{\n" + ",\n".join(parts) + "\n}\n"

    def save(self, path: str | Path) -> None:
        """Write the record to ``path`` as JSON."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record from a JSON file (raise :class:`RecordError` if malformed).

        The file is read within the limits of ``docs/records.md`` (size, nesting, digits); use
        :func:`replay_file` to verify the actions while they are read.
        """
        return cls.loads(read_bytes(path, str(path)), source=str(path))

    @classmethod
    def loads(cls, data: bytes | str, *, source: str = ErrorText("the record")) -> Record:
        """Read a record from JSON text or UTF-8 bytes (raise :class:`RecordError`)."""
        return cls.from_json(loads_json(data, source))

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Build a record from a JSON document, checking its shape."""
        if not isinstance(data, Mapping):
            raise RecordError(ErrorText("a record is a JSON object"))
        record = _header_from_json(data)
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise RecordError(_ACTIONS_SHAPE)
        record.actions = [_action_from_json(item, i) for i, item in enumerate(raw_actions)]
        _tail_from_json(record, data)
        return record


_HEADER_KEYS = ("format", "version", "game", "options", "players", "seed", "setup")
#: the top-level fields of a record; the value of any other is read as JSON and not kept
_KEPT = frozenset((*_HEADER_KEYS, "actions", "outcome", "meta"))
_ACTIONS_SHAPE = ErrorText('"actions" must be a list of [seat, notation] pairs')


def _header_from_json(data: Mapping[str, Any]) -> Record:
    """A record with the header of ``data`` (everything but actions, outcome and meta)."""
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(
            ErrorText("not a Campfire record (format={format})", format=short_repr(fmt))
        )
    if not any(key in data for key in ("version", "game", "players", "actions")):
        found = ", ".join(short_repr(k) for k in list(data)[:5]) or ErrorText("nothing")
        raise RecordError(
            ErrorText(
                'this JSON is not a Campfire game record: a record holds "version", "game", '
                '"players", "seed" or "setup", and "actions" (found {found}); see docs/records.md',
                found=found,
            )
        )
    version = data.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise RecordError(
            ErrorText(
                "unsupported record version {got}; this Campfire reads version {version}",
                got=short_repr(version),
                version=FORMAT_VERSION,
            )
        )
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError(ErrorText('the record must name its game ("game": "<name>", ...)'))
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError(
            ErrorText(
                '"players" must be a non-empty list of names or {object}', object='{"name": ...}'
            )
        )
    parsed_players = [_parse_player(p) for p in players]
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(ErrorText('"options" must be a JSON object of option names to values'))
    seed = data.get("seed")
    setup = data.get("setup")
    if seed is not None:
        seed = check_seed(seed, error=RecordError, what='"seed"')
    if setup is not None and not isinstance(setup, dict):
        raise RecordError(ErrorText('"setup" must be a JSON object'))
    if seed is None and setup is None:
        raise RecordError(ErrorText('the record needs a "seed" or an explicit "setup"'))
    return Record(game, parsed_players, dict(options), seed, setup)


def _action_from_json(item: Any, index: int) -> tuple[int, str]:
    if (
        not isinstance(item, list)
        or len(item) != 2
        or isinstance(item[0], bool)
        or not isinstance(item[0], int)
        or not isinstance(item[1], str)
    ):
        raise RecordError(
            ErrorText('expected [seat, "notation"], got {got}', got=short_repr(item)), index=index
        )
    return item[0], item[1]


def _tail_from_json(record: Record, data: Mapping[str, Any]) -> None:
    """Read the outcome and meta of ``data`` into ``record``."""
    raw_outcome = data.get("outcome")
    record.outcome = (
        None if raw_outcome is None else _outcome_from_json(raw_outcome, len(record.players))
    )
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError(ErrorText('"meta" must be a JSON object'))
    record.meta = meta if _json_size(meta, MAX_META_BYTES) <= MAX_META_BYTES else {}


def _json_size(value: Any, limit: int) -> int:
    """The length of ``value`` written as compact JSON (string escapes aside), up to ``limit``.

    Counting stops once past ``limit``, without writing anything.
    """
    size = 0
    stack = [value]
    while stack and size <= limit:
        item = stack.pop()
        if isinstance(item, str):
            size += len(item) + 2
        elif isinstance(item, dict):
            size += 1 + 2 * len(item)  # braces, colons and commas
            for key, sub in item.items():
                size += len(key) + 2
                stack.append(sub)
        elif isinstance(item, list):
            size += 1 + len(item)
            stack.extend(item)
        else:
            size += len(json.dumps(item))
    return size


def _outcome_from_json(raw: Any, players: int) -> Outcome:
    shape = ErrorText(
        '"outcome" must hold "scores" (numbers), "ranks" (1–{players}) and "winners" (seats '
        "0–{last}, at least one), one score and rank per player, or be null",
        players=players,
        last=players - 1,
    )
    if not isinstance(raw, dict):
        raise RecordError(shape)
    scores, ranks, winners = raw.get("scores"), raw.get("ranks"), raw.get("winners")
    details = raw.get("details", [])
    if not (
        isinstance(scores, list)
        and len(scores) == players
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in scores)
        and isinstance(ranks, list)
        and len(ranks) == players
        and all(type(r) is int and 1 <= r <= players for r in ranks)
        and isinstance(winners, list)
        and 1 <= len(winners) <= players
        and all(type(w) is int and 0 <= w < players for w in winners)
        and isinstance(details, list)
        and all(isinstance(d, dict) for d in details)
    ):
        raise RecordError(shape)
    return Outcome(tuple(scores), tuple(ranks), tuple(winners), tuple(details))


def _parse_player(item: Any) -> Player:
    if isinstance(item, str):
        return Player(item)
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        agent = item.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise RecordError(ErrorText('a player\'s "agent" must be a string'))
        return Player(item["name"], agent)
    raise RecordError(
        ErrorText(
            "a player is a name or {object} (got {got})",
            object='{"name": ...}',
            got=short_repr(item),
        )
    )


class Match:
    """A game in progress together with everything needed to record it.

    >>> from campfire import all_games
    >>> game = next(g for g in all_games() if g.max_players >= 3)
    >>> m = Match(game, 3, seed=42, names=["Ann", "Bob", "Cy"])
    >>> m.record().players[1].name
    'Bob'
    """

    def __init__(
        self,
        game: Game[Any],
        players: int,
        options: Options | Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
        names: Sequence[str] | None = None,
        agents: Sequence[str | None] | None = None,
    ) -> None:
        self.game = game
        self.options = game.options(options)
        if setup is None and seed is None:
            seed = secrets.randbits(63)
        self.seed = seed
        self.setup = dict(setup) if setup is not None else None
        self.state: State = game.new_game(players, self.options, seed=seed, setup=setup)
        if names is not None and len(names) != players:
            raise OptionError(
                ErrorText(
                    "{count} names given for {players} players", count=len(names), players=players
                )
            )
        if agents is not None and len(agents) != players:
            raise OptionError(
                ErrorText(
                    "{count} agents given for {players} players", count=len(agents), players=players
                )
            )
        names = list(names) if names is not None else [f"Player {i + 1}" for i in range(players)]
        agent_list = list(agents) if agents is not None else [None] * players
        self.players = [Player(n, a) for n, a in zip(names, agent_list, strict=True)]
        self.actions: list[tuple[int, Action]] = []

    def play(self, seat: int, action: Action | str) -> list[Event]:
        """Apply an action (or its notation) for ``seat`` and remember it.

        What is remembered, and written in the record, is the game's own action that the engine
        applied (:meth:`Game.canonical_action`): an action object built by hand must agree with
        it in every field, else :class:`~campfire.core.errors.NotationError` is raised and
        nothing changes.
        """
        parsed = self.game.canonical_action(action)
        events = self.state.apply(seat, parsed)
        self.actions.append((seat, parsed))
        return events

    def record(self, meta: Mapping[str, Any] | None = None) -> Record:
        """The record of the game so far (with the outcome once it is over)."""
        outcome = self.state.outcome() if self.state.is_terminal() else None
        info: dict[str, Any] = {
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        }
        info.update(meta or {})
        return Record(
            game=self.game.name,
            players=list(self.players),
            options=self.options.non_default(),
            seed=self.seed,
            setup=self.setup,
            actions=[(seat, str(action)) for seat, action in self.actions],
            outcome=outcome,
            meta=info,
        )


def replay(record: Record, *, game: Game[Any] | None = None) -> Match:
    """Rebuild the match of ``record``, verifying every action and the outcome.

    Raises :class:`RecordError` with the index of the first bad action and the reason.
    """
    match = _start_replay(record, game)
    for i, (seat, text) in enumerate(record.actions):
        _replay_action(match, i, seat, text)
    _check_outcome(record, match)
    return match


def replay_file(source: str | Path | IO[bytes], *, name: str | None = None) -> tuple[Record, Match]:
    """Read a record file (a path or a binary stream) and replay it as its actions are read.

    The file is refused before reading if it is larger than :data:`MAX_JSON_BYTES`; the first
    bad action stops the reading (see :func:`replay_text`). ``name`` names the source in errors.
    """
    what = (
        name
        if name is not None
        else str(source)
        if isinstance(source, (str, Path))
        else ErrorText("input")
    )
    return replay_text(read_bytes(source, what), source=what)


def replay_text(
    data: bytes | str, *, source: str = ErrorText("the record")
) -> tuple[Record, Match]:
    """Read a record's JSON text and replay it, checking each action as soon as it is read.

    When the header fields (``format``, ``version``, ``game``, ``options``, ``players``, ``seed``,
    ``setup``) come before ``"actions"`` — as Campfire writes them — the game is set up when
    ``"actions"`` is reached and each action is applied as it is read, so the first illegal one
    ends the reading. Otherwise the actions are read first and replayed once the header is
    complete; a header field after actions that were already applied is refused. Returns the
    record and the replayed match, like ``replay(Record.loads(data))``.
    """
    if len(data) > MAX_JSON_BYTES:
        raise RecordError(
            ErrorText(
                "{source} is larger than {limit} bytes, the most Campfire reads",
                source=source,
                limit=format(MAX_JSON_BYTES, ","),
            )
        )
    reader = JsonReader(decode_text(data, source), source)
    fields: dict[str, Any] = {}
    actions: list[tuple[int, str]] = []
    record: Record | None = None  # set once the header is read and the game is set up
    match: Match | None = None
    if reader.skip_space() != "{":
        reader.value()
        reader.at_end()
        raise RecordError(ErrorText("a record is a JSON object"))
    reader.pos += 1
    if reader.skip_space() == "}":
        reader.pos += 1
    else:
        while True:
            if reader.skip_space() != '"':
                raise reader.fail(ErrorText("expected a key in double quotes"))
            key = reader.value(1)
            reader.expect(":")
            if key in fields or (key == "actions" and "actions" in fields):
                raise RecordError(
                    ErrorText(
                        "{source} has the key {key} twice in one object",
                        source=source,
                        key=repr(key),
                    )
                )
            if key == "actions":
                fields["actions"] = None
                if match is None and _header_ready(fields):
                    record = _header_from_json(fields)
                    match = _start_replay(record, None)
                _read_actions(reader, actions, match)
            else:
                if match is not None and key in _HEADER_KEYS:
                    raise RecordError(
                        ErrorText(
                            "{key} comes after the actions that it governs; a record's header "
                            'fields ({fields}) come before "actions"',
                            key=repr(key),
                            fields=", ".join(_HEADER_KEYS),
                        )
                    )
                value = reader.value(1)
                # a field replay never uses is checked as JSON and dropped (its key kept for the
                # duplicate-key check): nothing the record does not need stays in memory
                fields[key] = value if key in _KEPT else None
            if reader.skip_space() == ",":
                reader.pos += 1
                continue
            reader.expect("}")
            break
    reader.at_end()
    if record is None or match is None:
        fields.pop("actions", None)
        record = _header_from_json(fields)
        match = _start_replay(record, None)
        for i, (seat, text) in enumerate(actions):
            _replay_action(match, i, seat, text)
    record.actions = actions
    _tail_from_json(record, fields)
    _check_outcome(record, match)
    return record, match


def _header_ready(fields: Mapping[str, Any]) -> bool:
    """Whether the required header fields have been read (so the actions can be applied)."""
    return all(k in fields for k in ("version", "game", "players")) and (
        "seed" in fields or "setup" in fields
    )


def _read_actions(reader: JsonReader, actions: list[tuple[int, str]], match: Match | None) -> None:
    """Read the ``"actions"`` array one action at a time (applying each when ``match`` is set)."""
    if reader.skip_space() != "[":
        reader.value(1)  # report malformed JSON first, then the shape
        raise RecordError(_ACTIONS_SHAPE)
    reader.pos += 1
    if reader.skip_space() == "]":
        reader.pos += 1
        return
    while True:
        index = len(actions)
        seat, text = _action_from_json(reader.value(2), index)
        if match is not None:
            _replay_action(match, index, seat, text)
        actions.append((seat, text))
        if reader.skip_space() == ",":
            reader.pos += 1
            continue
        reader.expect("]")
        return


def _start_replay(record: Record, game: Game[Any] | None) -> Match:
    """The match at the start of ``record`` (raise :class:`RecordError` for a bad header)."""
    if game is None:
        from .registry import get

        try:
            game = get(record.game)
        except CampfireError as exc:
            raise RecordError(exc.text) from None
    try:
        return Match(
            game,
            len(record.players),
            record.options,
            seed=record.seed,
            setup=record.setup,
            names=[p.name for p in record.players],
            agents=[p.agent for p in record.players],
        )
    except CampfireError as exc:
        raise RecordError(ErrorText("bad record header: {reason}", reason=exc.text)) from None


def _replay_action(match: Match, index: int, seat: int, text: str) -> None:
    """Apply the record's action number ``index`` (raise :class:`RecordError` if it is bad)."""
    if not 0 <= seat < match.state.num_players:
        raise RecordError(
            ErrorText(
                "seat {seat} does not exist (seats are 0–{last})",
                seat=seat,
                last=match.state.num_players - 1,
            ),
            index=index,
        )
    try:
        match.play(seat, text)
    except CampfireError as exc:
        raise RecordError(
            ErrorText(
                "{action} by seat {seat}: {reason}",
                action=short_repr(text),
                seat=seat,
                reason=exc.text,
            ),
            index=index,
        ) from None


def _outcome_difference(recorded: Outcome, replayed: Outcome) -> str:
    """One readable line naming what differs between two outcomes (at most three seats each)."""
    parts = []
    for name in ("scores", "ranks"):
        a, b = list(getattr(recorded, name)), list(getattr(replayed, name))
        if a == b:
            continue
        if len(a) != len(b):
            parts.append(f"{name}: {short_repr(a)} recorded, {short_repr(b)} replayed")
            continue
        seats = [i for i in range(len(a)) if a[i] != b[i]]
        shown = "; ".join(f"seat {i} {a[i]} recorded, {b[i]} replayed" for i in seats[:3])
        parts.append(f"{name}: {shown}" + (f" (+{len(seats) - 3} more)" if len(seats) > 3 else ""))
    if list(recorded.winners) != list(replayed.winners):
        parts.append(
            f"winners: {list(recorded.winners)} recorded, {list(replayed.winners)} replayed"
        )
    details = _details_difference(recorded, replayed)
    if details is not None:
        parts.append(details)
    return " | ".join(parts)


def _plain(details: Sequence[Mapping[str, Any]]) -> list[Any]:
    """Per-seat details as JSON reads them back (tuples as lists), to compare them."""
    return list(json.loads(json.dumps(list(details), ensure_ascii=False)))


def _details_difference(recorded: Outcome, replayed: Outcome) -> str | None:
    """Where the recorded per-seat details differ from the replayed ones (``None``: nowhere).

    Details a record leaves out (``"details"`` missing or empty) are not compared; stated, they
    must equal the replayed ones whole, seat by seat (docs/records.md).
    """
    if not recorded.details:
        return None
    ours, theirs = _plain(recorded.details), _plain(replayed.details)
    if ours == theirs:
        return None
    if len(ours) != len(theirs):
        return f"details: {len(ours)} seats recorded, {len(theirs)} replayed"
    seat = next(i for i in range(len(ours)) if ours[i] != theirs[i])
    a, b = ours[seat], theirs[seat]
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return f"details of seat {seat}: {short_repr(a, 30)} recorded, {short_repr(b, 30)} replayed"
    key = next(k for k in sorted({*a, *b}) if a.get(k, _MISSING) != b.get(k, _MISSING))
    mine, yours = (short_repr(d.get(key, "(missing)"), 30) for d in (a, b))
    return f"details of seat {seat}: {key!r} {mine} recorded, {yours} replayed"


_MISSING = object()


def _check_outcome(record: Record, match: Match) -> None:
    """Check the record's outcome (if it states one) against the replayed game, whole.

    Scores, ranks and winners must be equal; per-seat details, when the record states them,
    too (:func:`_details_difference`).
    """
    if record.outcome is not None:
        if not match.state.is_terminal():
            raise RecordError(
                ErrorText("the record states an outcome but its actions do not end the game")
            )
        actual = match.state.outcome()
        if actual != record.outcome or _details_difference(record.outcome, actual) is not None:
            raise RecordError(
                "the recorded outcome differs from the replayed one: "
                + _outcome_difference(record.outcome, actual)
            )
