"""The table protocol over WebSocket: message types, their JSON Schemas, reading and building.

``docs/protocol.md`` documents every message; the schemas (:mod:`.schemas`, re-exported here)
are the same ones (the tests validate every frame the server sends against them with
``jsonschema``). A frame for a seat is
built only from that seat's view, its legal actions and the events it may see
(:func:`seat_display`, :func:`seat_step`), never from a state.

Reading a client's message never raises anything but :class:`ProtocolError`, whose ``code``
and message go back to the client in an ``error`` frame:

>>> parse_client_message('{"type": "action", "seq": 3, "action": "peek 12"}')
{'type': 'action', 'seq': 3, 'action': 'peek 12'}
>>> parse_client_message('{"type": "dance"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
campfire.server.protocol.ProtocolError: unknown message type 'dance'; types: action, chat, ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from campfire.core import Action, CampfireError, ErrorText, Event, Game
from campfire.core.present import ActionChoice, Display, StepDisplay, translation
from campfire.core.validate import short_repr
from campfire.i18n import DEFAULT_LANGUAGE, translator

from .schemas import (
    CAUSES,
    CHAT_CHANNELS,
    CLIENT_SCHEMAS,
    MAX_CHAT,
    MAX_NOTATION,
    PROTOCOL_VERSION,
    SERVER_SCHEMAS,
)
from .wire import decode

__all__ = [
    "CAUSES",
    "CHAT_CHANNELS",
    "CLIENT_SCHEMAS",
    "CLOSE_BAD_REQUEST",
    "CLOSE_BAD_TOKEN",
    "CLOSE_FLOODING",
    "CLOSE_TOO_LARGE",
    "CLOSE_UNKNOWN_TABLE",
    "MAX_CHAT",
    "MAX_MESSAGE_CHARS",
    "PROTOCOL_VERSION",
    "SERVER_SCHEMAS",
    "ProtocolError",
    "client_frame",
    "closed_frame",
    "delta_frame",
    "error_frame",
    "legal_json",
    "parse_client_message",
    "presence_frame",
    "read_action",
    "seat_step",
    "snapshot_frame",
    "socket_flag",
    "speaking",
    "step_json",
]

#: The longest client message the server reads (characters of JSON text).
MAX_MESSAGE_CHARS = 4096

#: Close codes (RFC 6455 and the application range 4000–4999).
CLOSE_FLOODING = 1008  # policy violation: too many messages
CLOSE_TOO_LARGE = 1009  # message too big
CLOSE_BAD_REQUEST = 4400  # the connection's address is not allowed as written (since=abc)
CLOSE_BAD_TOKEN = 4401  # the seat token matches no seat of the table (or is empty)
CLOSE_UNKNOWN_TABLE = 4404  # no such table
CLOSE_MOVED = 1012  # several processes: the table moved to another process; reconnect


class ProtocolError(CampfireError):
    """A client message the server refuses; ``code`` names the kind (see ``docs/protocol.md``).

    The message is an :class:`~campfire.core.ErrorText` where it can be, so that the error
    frame speaks the connection's language.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# ----- reading ----------------------------------------------------------------------------------


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad_json(message: str) -> ProtocolError:
    return ProtocolError("bad_json", message)


def parse_client_message(text: str | bytes) -> dict[str, Any]:
    """Read and check one client message; raise :class:`ProtocolError` if it is refused.

    The JSON is read by the server's one strict reader (:func:`.wire.decode`: a key twice in
    an object, ``NaN`` or ``Infinity`` is ``bad_json``). The checks are those of
    :data:`CLIENT_SCHEMAS` (plus the size limit), with messages that say what is allowed: a
    ``type`` missing or not a string is ``bad_message``, a ``type`` the protocol does not have
    ``unknown_type``.
    """
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError(
            "too_large",
            ErrorText("a message may hold at most {limit} characters", limit=MAX_MESSAGE_CHARS),
        )
    data = decode(text, ErrorText("the message"), _bad_json)
    if not isinstance(data, dict):
        raise ProtocolError(
            "bad_json", ErrorText("a message is a JSON object (got {got})", got=short_repr(data))
        )
    kind = data.get("type")
    if not isinstance(kind, str):  # a field missing or of the wrong type
        raise ProtocolError(
            "bad_message",
            ErrorText(
                'a message names its "type", one of {types} (got {got})',
                types=", ".join(CLIENT_SCHEMAS),
                got=short_repr(kind) if "type" in data else ErrorText("none"),
            ),
        )
    if kind not in CLIENT_SCHEMAS:
        raise ProtocolError(
            "unknown_type",
            ErrorText(
                "unknown message type {got}; types: {types}",
                got=short_repr(kind),
                types=", ".join(CLIENT_SCHEMAS),
            ),
        )
    allowed = set(CLIENT_SCHEMAS[kind]["properties"])
    extra = sorted(str(k) for k in set(data) - allowed)
    if extra:
        raise ProtocolError(
            "bad_message",
            ErrorText(
                "a {kind} message holds only {allowed} (got {got})",
                kind=kind,
                allowed=", ".join(sorted(allowed)),
                got=short_repr(", ".join(extra)),
            ),
        )
    if kind == "action":
        seq, action = data.get("seq"), data.get("action")
        if not _is_int(seq) or seq < 0:
            raise ProtocolError(
                "bad_message",
                ErrorText(
                    '"seq" is the sequence number the action answers, an integer ≥ 0 (got {got})',
                    got=short_repr(seq),
                ),
            )
        if isinstance(action, str):
            if not 1 <= len(action) <= MAX_NOTATION:
                raise ProtocolError(
                    "bad_message",
                    ErrorText('"action" notation has 1–{limit} characters', limit=MAX_NOTATION),
                )
        elif not _is_int(action) or action < 0:
            raise ProtocolError(
                "bad_message",
                ErrorText(
                    '"action" is the action\'s notation or its index ≥ 0 (got {got})',
                    got=short_repr(action),
                ),
            )
        if "seat" in data and (not _is_int(data["seat"]) or data["seat"] < 0):
            raise ProtocolError(
                "bad_message",
                ErrorText('"seat" is a seat number (got {got})', got=short_repr(data["seat"])),
            )
    elif kind == "chat":
        line = data.get("text")
        if not isinstance(line, str):
            raise ProtocolError(
                "bad_message",
                ErrorText('"text" is the chat line, a string (got {got})', got=short_repr(line)),
            )
        if len(line) > MAX_CHAT:
            raise ProtocolError(
                "too_large",
                ErrorText("a chat line holds at most {limit} characters", limit=MAX_CHAT),
            )
    elif kind == "hint":
        seq = data.get("seq")
        if not _is_int(seq) or seq < 0:
            raise ProtocolError(
                "bad_message",
                ErrorText(
                    '"seq" is the sequence number of the position to hint at, an integer ≥ 0 '
                    "(got {got})",
                    got=short_repr(seq),
                ),
            )
    elif kind in ("undo", "undo_answer"):
        seq = data.get("seq")
        if not _is_int(seq) or seq < 0:
            raise ProtocolError(
                "bad_message",
                ErrorText(
                    '"seq" is the sequence number of the move to take back, an integer ≥ 0 '
                    "(got {got})",
                    got=short_repr(seq),
                ),
            )
        if kind == "undo_answer" and not isinstance(data.get("accept"), bool):
            raise ProtocolError(
                "bad_message",
                ErrorText(
                    '"accept" is true (take the move back) or false (decline) (got {got})',
                    got=short_repr(data.get("accept")),
                ),
            )
    elif kind == "sync" and "since" in data:
        since = data["since"]
        if not _is_int(since) or since < 0:
            raise ProtocolError(
                "bad_message",
                ErrorText('"since" is a sequence number ≥ 0 (got {got})', got=short_repr(since)),
            )
    return data


def read_action(game: Game[Any], players: int, action: str | int) -> Action:
    """The action a client named by notation or index; raise :class:`ProtocolError` if none."""
    try:
        if isinstance(action, str):
            return game.parse_action(action)
        size = game.num_distinct_actions(players)
        if action >= size:
            raise ProtocolError(
                "illegal",
                ErrorText(
                    "an action index is 0–{high} in {game} for {players}",
                    high=size - 1,
                    game=game.title_text(),
                    players=players,
                ),
            )
        return game.action_from_index(action, players)
    except ProtocolError:
        raise
    except CampfireError as exc:
        raise ProtocolError("illegal", exc.text) from None


# ----- building ---------------------------------------------------------------------------------


def legal_json(
    game: Game[Any],
    players: int,
    legal: Sequence[Action],
    shown: Sequence[ActionChoice] = (),
) -> list[dict[str, Any]]:
    """The legal actions as ``{"index", "notation"}`` objects.

    ``shown`` may be the seat's display model's choices (``Display.actions``): where they are
    one per legal action, in order (each one's notation that of its action), their indices
    (:meth:`~campfire.core.present.Presenter.choice` asked the game for them) are taken
    rather than asked for again.
    """
    if shown and len(shown) == len(legal):
        out = []
        for action, choice in zip(legal, shown, strict=True):
            notation = str(action)
            if choice.notation != notation:
                break
            out.append({"index": choice.index, "notation": notation})
        else:
            return out
    return [{"index": game.action_index(a, players), "notation": str(a)} for a in legal]


#: Who decided a step, by its ``cause`` (``schemas.CAUSES``): the log lines say it
#: (:meth:`~campfire.core.present.Presenter.step_messages`).
DECIDED_BY = {"timeout": "clock", "window-closed": "clock", "timeout-bot": "bot", "takeover": "bot"}


def step_json(
    seq: int,
    seat: int,
    events: Sequence[Event],
    messages: Sequence[Mapping[str, Any]],
    cause: str | None = None,
    display: StepDisplay | None = None,
) -> dict[str, Any]:
    """One step as a seat sees it: ``seq`` is the sequence number after the step.

    ``display`` is what the step changed, moved and showed the seat alone (the presenter's
    :class:`~campfire.core.present.StepDisplay`; ``None``: nothing).
    """
    out: dict[str, Any] = {
        "seq": seq,
        "seat": seat,
        "events": [e.to_json() for e in events],
        "messages": [dict(m) for m in messages],
        "display": (display or StepDisplay()).to_json(),
    }
    if cause is not None:
        out["cause"] = cause
    return out


def seat_display(
    game: Game[Any],
    view: Mapping[str, Any],
    legal: Sequence[Action],
    names: Sequence[str],
    language: str = DEFAULT_LANGUAGE,
    play_mode: str = "turns",
) -> Display:
    """A seat's display model (the :class:`~campfire.core.present.Display` itself).

    The one path from a seat's knowledge to what a client draws: the live tables' frames and
    the replays (``campfire.server.replay``) both build it here, its texts in ``language``
    and its prompts worded for ``play_mode`` (the table's: ``"realtime-claims"`` where the
    server times the claims, else ``"turns"``).

    A frame may hold it as it is: ``campfire.server.wire.encode`` writes it as its
    ``to_json()`` (orjson encodes the dataclass directly, several times faster).
    """
    presenter = game.presenter()
    presenter.play_mode = play_mode  # the presenter's prompts worded for the table's play mode
    with speaking(language):
        return presenter.display(view, legal, names)


def seat_step(
    game: Game[Any],
    names: Sequence[str],
    seat: int | None,
    seq: int,
    mover: int,
    events: Sequence[Event],
    cause: str | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    """One step as ``seat`` sees it: ``events`` are those it may see, with their log lines.

    ``seq`` is the sequence number after the step and ``mover`` the seat that acted; the log
    lines are in ``language``. The step's ``display`` (what it changed, moved and showed the
    seat alone) is the presenter's, from the same events.
    """
    presenter = game.presenter()
    with speaking(language):
        messages = presenter.step_messages(events, names, seat, mover, DECIDED_BY.get(cause or ""))
        shown = presenter.step_display(events, seat)
    return step_json(seq, mover, events, [m.to_json() for m in messages], cause, shown)


def socket_flag(name: str, raw: str | None) -> bool:
    """A table socket's switch ``name`` (``patch``, ``view``): ``"1"`` on, ``"0"`` or absent off.

    Any other value is :class:`ProtocolError` ``bad_request``.
    """
    if raw not in (None, "0", "1"):
        raise ProtocolError(
            "bad_request",
            ErrorText("{name} is 1 or 0 (got {got})", name=name, got=repr(raw[:20])),
        )
    return raw == "1"


def client_frame(frame: dict[str, Any], views: bool) -> dict[str, Any]:
    """``frame`` as a client gets it: its raw ``view`` only if the client asked (``view=1``).

    Protocol version 4: what a client draws is the display model; a client that reads the
    game's own view (a bot, a research tool) connects with ``view=1`` and gets it as before.
    """
    if views or "view" not in frame:
        return frame
    sent = frame.copy()
    del sent["view"]
    return sent


def speaking(language: str) -> Any:
    """A ``with`` block in which presenters speak ``language`` (this task or thread only)."""
    return translation(None if language == DEFAULT_LANGUAGE else translator(language).text)


def snapshot_frame(
    *,
    table: int,
    game: str,
    status: str,
    game_number: int,
    seq: int,
    seat: int | None,
    seats: Sequence[Mapping[str, Any]],
    view: Mapping[str, Any] | None,
    display: Mapping[str, Any] | Display | None,
    legal: Sequence[Mapping[str, Any]],
    missed: Sequence[Mapping[str, Any]] = (),
    outcome: Mapping[str, Any] | None = None,
    clocks: Mapping[str, Any] | None = None,
    rematch: Mapping[str, Any] | None = None,
    hints: Sequence[tuple[int, int]] = (),
) -> dict[str, Any]:
    """A ``snapshot`` frame: everything a seat (or a spectator) may know now.

    ``rematch`` is the open rematch proposal of a finished game (:mod:`.rematch`), if any;
    ``hints`` the ``(seq, seat)`` of each hint used in the game being played (:mod:`.hints`).
    ``display`` may be the :class:`~campfire.core.present.Display` itself (kept as it is, for
    ``campfire.server.wire.encode``) or its JSON.
    """
    return {
        "type": "snapshot",
        "version": PROTOCOL_VERSION,
        "table": table,
        "game": game,
        "status": status,
        "game_number": game_number,
        "seq": seq,
        "seat": seat,
        "seats": [dict(s) for s in seats],
        "view": dict(view) if view is not None else None,
        "display": display if display is None or isinstance(display, Display) else dict(display),
        "legal": [dict(a) for a in legal],
        "missed": [dict(m) for m in missed],
        "outcome": dict(outcome) if outcome is not None else None,
        "clocks": dict(clocks) if clocks is not None else None,
        "rematch": dict(rematch) if rematch is not None else None,
        "hints": [{"seq": seq, "seat": seat} for seq, seat in hints],
    }


def delta_frame(
    *,
    table: int,
    game_number: int,
    step: Mapping[str, Any],
    view: Mapping[str, Any],
    display: Mapping[str, Any] | Display | None,
    legal: Sequence[Mapping[str, Any]],
    outcome: Mapping[str, Any] | None = None,
    clocks: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``delta`` frame: one step as a seat sees it, and its new view and display model.

    ``display`` may be the :class:`~campfire.core.present.Display` itself (kept as it is, for
    ``campfire.server.wire.encode``) or its JSON. The frame holds ``legal``'s objects
    themselves (made for it by :func:`legal_json`; built once per step, frames are never
    changed afterwards).
    """
    return {
        "type": "delta",
        "table": table,
        "game_number": game_number,
        "seq": step["seq"],
        "step": dict(step),
        "view": dict(view),
        "display": display if display is None or isinstance(display, Display) else dict(display),
        "legal": list(legal),
        "outcome": dict(outcome) if outcome is not None else None,
        "clocks": dict(clocks) if clocks is not None else None,
    }


def closed_frame(table: int, game_number: int, seq: int, message: str) -> dict[str, Any]:
    """A ``closed`` frame: the server's operator closed the table, with ``message`` to its players.

    It follows the snapshot of a closed table (the table is ``finished`` and stays so).
    """
    return {
        "type": "closed",
        "table": table,
        "game_number": game_number,
        "seq": seq,
        "message": message,
    }


def presence_frame(table: int, seats: Sequence[Mapping[str, Any] | None]) -> dict[str, Any]:
    """A ``presence`` frame: each seat's connection (:meth:`.live.LiveTable.presence`).

    Sent to every connection of the table when a person's first connection opens or their
    last one closes; a snapshot's ``seats`` carry the same.
    """
    return {"type": "presence", "table": table, "seats": [dict(s) if s else None for s in seats]}


def error_frame(code: str, message: str, seq: int | None = None) -> dict[str, Any]:
    """An ``error`` frame (``seq``: the table's sequence number, when it helps the client)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if seq is not None:
        out["seq"] = seq
    return out
