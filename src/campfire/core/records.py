"""Game records and replay.

A :class:`Record` is the versioned JSON document of one game (see ``docs/records.md``). A
:class:`Match` is a game in progress together with its history; :func:`replay` rebuilds a match
from a record, verifying every action.

>>> from campfire import get_game
>>> match = Match(get_game("tracker"), 2, seed=1)
>>> events = match.play(match.state.current_seat(), "peek 0")
>>> rec = match.record()
>>> rec.actions[0][1]
'peek 0'
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
from typing import Any

from .actions import Action
from .errors import CampfireError, RecordError
from .events import Event
from .game import Game
from .options import Options
from .outcome import Outcome
from .state import State

__all__ = ["FORMAT", "FORMAT_VERSION", "Match", "Player", "Record", "replay"]

FORMAT = "campfire-record"
FORMAT_VERSION = 1


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
        """Read a record from a JSON file (raise :class:`RecordError` if malformed)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not valid JSON ({exc})") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Build a record from a JSON document, checking its shape."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"not a Campfire record (format={data.get('format')!r})")
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise RecordError(
                f"unsupported record version {version!r}; this Campfire reads version "
                f"{FORMAT_VERSION}"
            )
        game = data.get("game")
        if not isinstance(game, str):
            raise RecordError('the record must name its game ("game": "tracker", ...)')
        players = data.get("players")
        if not isinstance(players, list) or not players:
            raise RecordError('"players" must be a non-empty list of names or {"name": ...}')
        parsed_players = [_parse_player(p) for p in players]
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError('"options" must be a JSON object of option names to values')
        seed = data.get("seed")
        setup = data.get("setup")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError(f'"seed" must be an integer (got {seed!r})')
        if setup is not None and not isinstance(setup, dict):
            raise RecordError('"setup" must be a JSON object')
        if seed is None and setup is None:
            raise RecordError('the record needs a "seed" or an explicit "setup"')
        raw_actions = data.get("actions", [])
        if not isinstance(raw_actions, list):
            raise RecordError('"actions" must be a list of [seat, notation] pairs')
        actions: list[tuple[int, str]] = []
        for i, item in enumerate(raw_actions):
            if (
                not isinstance(item, list)
                or len(item) != 2
                or isinstance(item[0], bool)
                or not isinstance(item[0], int)
                or not isinstance(item[1], str)
            ):
                raise RecordError(f'expected [seat, "notation"], got {item!r}', index=i)
            actions.append((item[0], item[1]))
        outcome = None
        raw_outcome = data.get("outcome")
        if raw_outcome is not None:
            try:
                outcome = Outcome.from_json(raw_outcome)
            except (KeyError, TypeError, ValueError):
                raise RecordError(
                    '"outcome" must hold "scores", "ranks" and "winners" lists'
                ) from None
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError('"meta" must be a JSON object')
        return cls(game, parsed_players, options, seed, setup, actions, outcome, meta)


def _parse_player(item: Any) -> Player:
    if isinstance(item, str):
        return Player(item)
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        agent = item.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise RecordError('a player\'s "agent" must be a string')
        return Player(item["name"], agent)
    raise RecordError(f'a player is a name or {{"name": ...}} (got {item!r})')


class Match:
    """A game in progress together with everything needed to record it.

    >>> from campfire import get_game
    >>> m = Match(get_game("tracker"), 3, seed=42, names=["Ann", "Bob", "Cy"])
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
            raise ValueError(f"{len(names)} names given for {players} players")
        if agents is not None and len(agents) != players:
            raise ValueError(f"{len(agents)} agents given for {players} players")
        names = list(names) if names is not None else [f"Player {i + 1}" for i in range(players)]
        agent_list = list(agents) if agents is not None else [None] * players
        self.players = [Player(n, a) for n, a in zip(names, agent_list, strict=True)]
        self.actions: list[tuple[int, Action]] = []

    def play(self, seat: int, action: Action | str) -> list[Event]:
        """Apply an action (or its notation) for ``seat`` and remember it."""
        parsed = self.game.parse_action(action) if isinstance(action, str) else action
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
    if game is None:
        from .registry import get

        try:
            game = get(record.game)
        except CampfireError as exc:
            raise RecordError(str(exc)) from None
    try:
        match = Match(
            game,
            len(record.players),
            record.options,
            seed=record.seed,
            setup=record.setup,
            names=[p.name for p in record.players],
            agents=[p.agent for p in record.players],
        )
    except CampfireError as exc:
        raise RecordError(f"bad record header: {exc}") from None
    for i, (seat, text) in enumerate(record.actions):
        if not 0 <= seat < match.state.num_players:
            raise RecordError(
                f"seat {seat} does not exist (seats are 0–{match.state.num_players - 1})", index=i
            )
        try:
            match.play(seat, text)
        except CampfireError as exc:
            raise RecordError(f"{text!r} by seat {seat}: {exc}", index=i) from None
    if record.outcome is not None:
        if not match.state.is_terminal():
            raise RecordError("the record states an outcome but its actions do not end the game")
        actual = match.state.outcome()
        if actual != record.outcome:
            raise RecordError(
                f"the recorded outcome {record.outcome.to_json()} differs from the replayed "
                f"outcome {actual.to_json()}"
            )
    return match
