"""Lobby operations on live tables: create, join, leave, start, rematch, records, listings.

Each operation checks a lobby request and answers :class:`~.seating.LobbyError` (an HTTP status,
a code and a message in the user's language) when it is refused; :mod:`.lobby` serves them over
HTTP. A change of the seats is stored, then every connection of the table gets a fresh snapshot.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from campfire.agents import LEVELS
from campfire.core import CampfireError, ErrorText, all_games
from campfire.core import get as get_game

from .clocks import TimeControl
from .hub import Hub
from .live import REALTIME_MODE, LiveTable
from .rated_tables import account_needed, check_accounts, check_rated
from .rematch import ANSWERS, LEFT_GRACE_SECONDS, PROPOSAL_SECONDS, RematchProposal, rematch_frame
from .seating import (
    TAKEOVER_LEVEL,
    LobbyError,
    SeatInfo,
    check_nickname,
    hash_token,
    seat_request,
)

__all__ = ["LobbyOps", "undo_default"]


def undo_default(live: LiveTable) -> bool:
    """Whether a table allows taking back a move when its request does not say (``"undo"``).

    On at a casual table of people: two or more people, no clock, not in real time.
    """
    return live.people() >= 2 and live.control.kind == "none" and not live.realtime


class LobbyOps:
    """The lobby's operations on the tables (see the module)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def get(self, table_id: int) -> LiveTable:
        """The live table ``table_id`` (:class:`LobbyError` 404 if there is none)."""
        live = self.hub.recovery.load(table_id)
        if live is None:
            raise LobbyError(
                404, "unknown_table", ErrorText("there is no table {table}", table=table_id)
            )
        return live

    def listing(self, statuses: Sequence[str]) -> list[dict[str, Any]]:
        """The tables whose status is one of ``statuses``.

        A table this process has in memory as it is there; any other (another process's, or a
        finished one nobody asked for since the start) as the database has it, without
        rebuilding it.
        """
        ids = self.hub.store.table_ids(statuses)
        found = [
            self.hub.tables[i].public() if i in self.hub.tables else self.hub.store.public(i)
            for i in ids
        ]
        return [t for t in found if t is not None]

    # ----- lobby ------------------------------------------------------------------------------
    def create(
        self, request: Mapping[str, Any], user: int | None = None
    ) -> tuple[LiveTable, dict[int, str]]:
        """Create a table from a lobby request; return it and the tokens of reserved seats.

        ``user``: the signed-in user who creates it (``None``: a guest); the first reserved
        seat is theirs (``account_seats``). A rated table (``"rated": true``) needs one, and
        is checked by :func:`check_rated`.
        """
        allowed = {
            *("game", "players", "options", "seats", "clock"),
            *("bot_after_leave", "realtime", "takeover_level", "undo", "hints", "rated"),
        }
        extra = sorted(set(request) - allowed)
        if extra:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    "a new table takes {allowed} (got {got})",
                    allowed=", ".join(sorted(allowed)),
                    got=", ".join(extra),
                ),
            )
        name = request.get("game")
        if not isinstance(name, str):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"game" names the game: one of {games}',
                    games=", ".join(g.name for g in all_games()),
                ),
            )
        try:
            game = get_game(name)
        except CampfireError as exc:
            raise LobbyError(400, "bad_request", exc.text) from None
        players = request.get("players", game.min_players)
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not game.min_players <= players <= game.max_players
        ):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"players": {game} is played by {low}–{high}',
                    game=game.title_text(),
                    low=game.min_players,
                    high=game.max_players,
                ),
            )
        raw_options = request.get("options", {})
        if not isinstance(raw_options, dict):
            raise LobbyError(
                400, "bad_request", ErrorText('"options" is an object of option values')
            )
        try:
            options = game.options(raw_options).non_default()
        except CampfireError as exc:
            raise LobbyError(400, "bad_request", exc.text) from None
        except TypeError as exc:
            raise LobbyError(400, "bad_request", str(exc)) from None
        raw_seats = request.get("seats", [{"kind": "open"}] * players)
        if not isinstance(raw_seats, list) or len(raw_seats) != players:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText('"seats" is a list of {players} seats, one per player', players=players),
            )
        try:
            control = TimeControl.read(request.get("clock"))
        except CampfireError as exc:
            raise LobbyError(400, "bad_request", exc.text) from None
        after = request.get("bot_after_leave")
        if after is not None and (
            isinstance(after, bool) or not isinstance(after, int | float) or not 0 <= after <= 3600
        ):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"bot_after_leave" is the seconds (0–3600) a bot waits before it takes over '
                    "the seat of a person who left, or null (never)"
                ),
            )
        realtime = request.get("realtime", False)
        if not isinstance(realtime, bool) or (realtime and REALTIME_MODE not in game.play_modes):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"realtime" is true or false; real-time claim windows exist in games played '
                    "in the realtime-claims mode: {games}",
                    games=", ".join(g.name for g in all_games() if REALTIME_MODE in g.play_modes),
                ),
            )
        takeover = request.get("takeover_level", TAKEOVER_LEVEL)
        if takeover not in LEVELS:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"takeover_level" is the level of a bot that takes over a person\'s seat: '
                    "one of {levels}",
                    levels=", ".join(LEVELS),
                ),
            )
        undo = request.get("undo")
        if undo is not None and not isinstance(undo, bool):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"undo" is true (a player may ask to take back their last move, which the '
                    "other people accept), false, or left out (on at a table of people without "
                    "a clock)"
                ),
            )
        rated = request.get("rated", False)
        if not isinstance(rated, bool):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"rated" is true (the game changes the players\' ratings; signed-in '
                    "players only) or false (the default)"
                ),
            )
        if rated:
            check_rated(game, request, raw_seats, user)
            realtime = REALTIME_MODE in game.play_modes  # claim windows timed by the server
        hints = request.get("hints", False)
        if not isinstance(hints, bool):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"hints" is true (a player may ask what the hard level would play; the '
                    "table's log says so) or false (the default)"
                ),
            )
        seats: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        for i, raw in enumerate(raw_seats):
            seat, token = seat_request(i, raw)
            seats.append(seat)
            if token is not None:
                tokens[i] = token
        live = LiveTable(
            0, game, options, players, seats, self.hub.store, now=self.hub.clock, wall=self.hub.wall
        )
        live.control = control
        live.bot_after_leave = float(after) if after is not None else None
        live.realtime_asked = realtime
        live.realtime = live.measured()
        live.takeover_level = takeover
        if undo and live.realtime:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText(
                    '"undo": a move cannot be taken back in real time (claim windows timed by '
                    "the server)"
                ),
            )
        live.undo = undo_default(live) if undo is None else undo
        if hints and live.realtime:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText('"hints": no hints in real time (claim windows timed by the server)'),
            )
        live.hints = hints
        live.rated = rated
        if rated:
            live.undo = False
        live.id = self.hub.store.create(game.name, options, players, seats, live.stored_settings())
        if self.hub.cluster is not None:
            self.hub.cluster.claim(live.id)
        if user is not None and tokens:
            self.hub.store.own_seat(live.id, min(tokens), user)
        self.hub.tables[live.id] = live
        return live, tokens

    def join(
        self, live: LiveTable, request: Mapping[str, Any], user: int | None = None
    ) -> tuple[int, str]:
        """Seat a person at an open seat (the one asked for, or the first); return seat, token.

        ``user``: the signed-in user who joins (``None``: a guest); the seat is recorded as
        theirs. At a rated table a guest, or a user who has a seat there already, is refused
        (403 ``account_needed``).
        """
        if set(request) - {"nickname", "seat"}:
            raise LobbyError(
                400, "bad_request", ErrorText("joining takes a nickname and optionally a seat")
            )
        nickname = check_nickname(request.get("nickname"))
        if live.rated and live.status == "open":
            if user is None:
                raise account_needed()
            if user in self.hub.store.owners(live.id).values():
                raise LobbyError(
                    409,
                    "seat_taken",
                    ErrorText("you have a seat at this rated table already: one seat a person"),
                )
        if live.status != "open":
            raise LobbyError(
                409,
                "not_open",
                ErrorText("table {table} has started: no seat can be taken", table=live.id),
            )
        wanted = request.get("seat")
        free = [s for s in live.seats if s.kind == "open"]
        if wanted is not None:
            if not isinstance(wanted, int) or isinstance(wanted, bool):
                raise LobbyError(400, "bad_request", ErrorText('"seat" is a seat number'))
            free = [s for s in free if s.seat == wanted]
            if not free:
                raise LobbyError(
                    409,
                    "seat_taken",
                    ErrorText(
                        "seat {seat} is not open; open seats: {open}",
                        seat=wanted,
                        open=", ".join(str(s.seat) for s in live.seats if s.kind == "open")
                        or ErrorText("none"),
                    ),
                )
        if not free:
            raise LobbyError(
                409, "table_full", ErrorText("table {table} has no open seat", table=live.id)
            )
        seat = free[0]
        token = secrets.token_urlsafe(24)
        seat.kind, seat.nickname, seat.token_hash = "human", nickname, hash_token(token)
        self.hub.store.save_seat(live.id, seat)
        if user is not None:
            self.hub.store.own_seat(live.id, seat.seat, user)
        live.push_snapshots()
        return seat.seat, token

    def seat_for(self, live: LiveTable, token: str | None) -> int:
        """The seat of ``token`` at ``live`` (:class:`LobbyError` 401 if none)."""
        seat = live.seat_of(token) if token else None
        if seat is None:
            raise LobbyError(
                401,
                "bad_token",
                ErrorText("send the seat token this table gave you: Bearer TOKEN"),
            )
        return seat

    def leave(self, live: LiveTable, token: str | None) -> int:
        """Free the seat of ``token`` before the game starts; return the seat."""
        seat = self.seat_for(live, token)
        if live.status != "open":
            raise LobbyError(
                409,
                "not_open",
                ErrorText(
                    "a seat can be left only before the game starts; during a game, close the "
                    "connection (a bot takes over if the table has bot_after_leave)"
                ),
            )
        info = live.seats[seat]
        info.kind, info.nickname, info.token_hash = "open", None, None
        self.hub.store.save_seat(live.id, info)
        self.hub.store.own_seat(live.id, seat, None)  # (no longer the account's)
        live.push_snapshots()
        return seat

    def start(
        self,
        live: LiveTable,
        token: str | None,
        seed: int | None = None,
        request: Mapping[str, Any] | None = None,
    ) -> None:
        """Start the first game (``request``: the start's body, ``{"absent": …}``).

        ``absent`` says what happens to the seats nobody is at: ``"wait"`` (the default) starts
        once every seat is taken, people connected or not; ``"refuse"`` also refuses while a
        person is not connected (409 ``people_away``, naming them); ``"bots"`` starts anyway:
        a bot takes over the seat of each person not connected (until they come) and bots of
        the table's ``takeover_level`` sit in the open seats.
        """
        request = request or {}
        absent = request.get("absent", "wait")
        if set(request) - {"absent"} or absent not in ("wait", "refuse", "bots"):
            raise LobbyError(
                400,
                "bad_request",
                ErrorText('starting takes "absent": "wait", "refuse" or "bots"'),
            )
        if any(s.kind == "human" for s in live.seats):
            self.seat_for(live, token)
        if live.status != "open":
            raise LobbyError(
                409, "not_open", ErrorText("table {table} has already started", table=live.id)
            )
        waiting = [str(s.seat + 1) for s in live.seats if s.kind == "open"]
        if waiting and absent != "bots":
            raise LobbyError(
                409,
                "seats_open",
                ErrorText(
                    "these seats are still open: {seats}; wait for people to take them, or "
                    "start with bots in them",
                    seats=", ".join(waiting),
                ),
            )
        away = live.absent()
        if away and absent == "refuse":
            raise LobbyError(
                409,
                "people_away",
                ErrorText(
                    "{names} not connected: wait for them, or start with bots in their seats "
                    "until they come",
                    names=", ".join(s.name() for s in away),
                ),
            )
        if live.rated:
            check_accounts(live, self.hub.store.owners(live.id))
        if absent == "bots":
            for info in live.seats:
                if info.kind == "open":
                    info.kind, info.level = "bot", live.takeover_level
                    self.hub.store.save_seat(live.id, info)
        self._new_game(live, seed)
        if absent == "bots":
            for info in away:
                self.hub.takeover.take_over(live, info.seat)

    def rename(self, live: LiveTable, token: str | None, request: Mapping[str, Any]) -> int:
        """Give the seat of ``token`` the nickname of ``request`` before the game starts."""
        seat = self.seat_for(live, token)
        if set(request) - {"nickname"}:
            raise LobbyError(400, "bad_request", ErrorText("naming a seat takes a nickname"))
        nickname = check_nickname(request.get("nickname"))
        if live.status != "open":
            raise LobbyError(
                409,
                "not_open",
                ErrorText("a seat's name can be changed only before the game starts"),
            )
        info = live.seats[seat]
        info.nickname = nickname
        self.hub.store.save_seat(live.id, info)
        live.push_snapshots()
        return seat

    def rematch(
        self,
        live: LiveTable,
        token: str | None,
        seed: int | None = None,
        request: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """Propose, accept or decline the next game at a finished table, with the same seats.

        A person's first request proposes it (``{}`` or ``{"answer": "accept"}``); the other
        people each accept or decline (``{"answer": "decline"}``). The game starts when every
        person has accepted: at once where the proposer is the only person (:mod:`.rematch`).
        Return the open proposal as frames show it, ``None`` once the game started or after a
        decline.
        """
        request = request or {}
        if set(request) - {"answer"} or request.get("answer", "accept") not in ANSWERS:
            raise LobbyError(
                400,
                "bad_request",
                ErrorText('a rematch request holds at most "answer": "accept" or "decline"'),
            )
        answer = request.get("answer", "accept")
        people = frozenset(s.seat for s in live.seats if s.kind == "human")
        seat = self.seat_for(live, token) if people else None
        if live.closed is not None:
            raise LobbyError(
                409,
                "table_closed",
                ErrorText(
                    "table {table} was closed by the server's operator: no game is played there "
                    "any more",
                    table=live.id,
                ),
            )
        if live.status != "finished":
            raise LobbyError(
                409,
                "not_finished",
                ErrorText("a rematch starts once the current game has finished"),
            )
        if live.rated:
            check_accounts(live, self.hub.store.owners(live.id))
        proposal = live.rematch
        if answer == "decline":
            if proposal is None or seat is None:
                raise LobbyError(
                    409, "no_proposal", ErrorText("there is no rematch proposal to decline")
                )
            self._end_proposal(live, "declined", seat)
            return None
        if proposal is None:
            if seat is None or people == {seat}:
                self._new_game(live, seed)
                return None
            proposal = RematchProposal(seat, people, self.hub.clock() + PROPOSAL_SECONDS)
            proposal.task = self.hub.spawn(self._expire(live, proposal))
            live.rematch = proposal
        assert seat is not None
        proposal.accepted.add(seat)
        if not proposal.waiting():
            self._drop_proposal(live)
            self._new_game(live, seed)
            return None
        self._push_proposal(live, "proposed")
        return proposal.to_json(self.hub.clock())

    def rematch_left(self, live: LiveTable, seat: int) -> None:
        """A person's last connection closed: unless they are back soon, the proposal ends."""
        proposal = live.rematch
        if proposal is not None and seat in proposal.people:
            self.hub.spawn(self._left_later(live, proposal, seat))

    async def _left_later(self, live: LiveTable, proposal: RematchProposal, seat: int) -> None:
        await asyncio.sleep(LEFT_GRACE_SECONDS)
        async with live.lock:
            here = any(c.seat == seat for c in live.connections)
            if live.rematch is proposal and not here:
                self._end_proposal(live, "left", seat)

    async def _expire(self, live: LiveTable, proposal: RematchProposal) -> None:
        await asyncio.sleep(max(0.0, proposal.expires - self.hub.clock()))
        async with live.lock:
            if live.rematch is proposal:
                proposal.task = None  # (this task: nothing to cancel)
                self._end_proposal(live, "expired", None)

    def _end_proposal(self, live: LiveTable, reason: str, by: int | None) -> None:
        """Cancel the open proposal (``reason``: declined, left, expired) and say so."""
        self._push_proposal(live, "cancelled", reason, by)
        self._drop_proposal(live)

    def _drop_proposal(self, live: LiveTable) -> None:
        proposal, live.rematch = live.rematch, None
        if proposal is not None and proposal.task is not None:
            proposal.task.cancel()

    def _push_proposal(
        self, live: LiveTable, state: str, reason: str | None = None, by: int | None = None
    ) -> None:
        """Tell every connection of the table about the proposal (a ``rematch`` frame)."""
        proposal = live.rematch
        assert proposal is not None
        frame = rematch_frame(live.id, live.number, state, proposal, self.hub.clock(), reason, by)
        for conn in list(live.connections):
            conn.push(frame)

    def _new_game(self, live: LiveTable, seed: int | None) -> None:
        self._drop_proposal(live)
        live.seed = seed if seed is not None else secrets.randbits(63)
        live.number += 1
        live.status = "running"
        live.forfeit = None
        realtime = live.measured()  # decided as the game starts, for the whole game
        if realtime != live.realtime:
            live.realtime = realtime
            live.undo = live.undo and not realtime  # never in real time
            self.hub.store.save_settings(live.id, live.stored_settings())
        self.hub.store.start(live.id, live.number, live.seed)
        live.turn_saved = None  # a new game: its first turn starts now
        live.build()
        live.push_snapshots()
        self.hub.recovery.resume(live)  # its bots, clocks, absent people and claim windows go on

    def record(self, live: LiveTable, number: int | None) -> str:
        """The record of game ``number`` (default: the last finished) of a table.

        The game being played has none yet: 409 ``no_record``, also when it is the first and
        the default is asked for (the replays answer the same). A game the table has not had
        (nor any game at a table that has not started) is 404 ``no_record``.
        """
        if number is None:
            last = live.number if live.status == "finished" else live.number - 1
            number = max(last, 1)  # before the first game ends: the first
        text = self.hub.store.record(live.id, number) if number >= 1 else None
        if text is None:
            playing = live.status == "running" and number == live.number
            raise LobbyError(
                409 if playing else 404,
                "no_record",
                ErrorText(
                    "table {table} has no finished game {number}; records exist once a game ends",
                    table=live.id,
                    number=number,
                ),
            )
        return text
