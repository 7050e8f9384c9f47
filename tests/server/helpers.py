"""Helpers of the server tests: apps, tables, and clients that check every frame they get."""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import jsonschema
from starlette.testclient import TestClient

from campfire.server.app import create_app
from campfire.server.learn import LEARN_SCHEMAS
from campfire.server.lobby import LOBBY_SCHEMAS
from campfire.server.patches import apply_patch
from campfire.server.protocol import CLIENT_SCHEMAS, SERVER_SCHEMAS
from campfire.server.replay import REPLAY_SCHEMA

VALIDATORS = {k: jsonschema.Draft202012Validator(s) for k, s in SERVER_SCHEMAS.items()}
CLIENT_VALIDATORS = {k: jsonschema.Draft202012Validator(s) for k, s in CLIENT_SCHEMAS.items()}
LOBBY_VALIDATORS = {
    **{k: jsonschema.Draft202012Validator(s) for k, s in LOBBY_SCHEMAS.items()},
    "replay": jsonschema.Draft202012Validator(REPLAY_SCHEMA),
    **{k: jsonschema.Draft202012Validator(s) for k, s in LEARN_SCHEMAS.items()},
}

_TABLE_PATH = r"/api/tables/[^/]+"
#: the lobby's routes: method, path, the schema of the body a client sends (``None``: none)
#: and of the answers by status (every error answer is ``http_error``)
LOBBY_ROUTES: list[tuple[str, str, str | None, dict[int, str]]] = [
    ("GET", r"/healthz", None, {200: "health", 503: "health"}),
    ("GET", r"/api/games", None, {200: "games"}),
    ("GET", r"/api/tables", None, {200: "tables"}),
    ("POST", r"/api/tables", "create_table", {201: "table_created"}),
    ("GET", _TABLE_PATH, None, {200: "one_table"}),
    ("POST", _TABLE_PATH + "/join", "join_table", {201: "seat_joined"}),
    ("POST", _TABLE_PATH + "/leave", None, {200: "seat_left"}),
    ("POST", _TABLE_PATH + "/start", None, {200: "one_table"}),
    ("POST", _TABLE_PATH + "/rematch", "rematch_request", {200: "rematch_answer"}),
    ("GET", _TABLE_PATH + "/record", None, {}),  # a record: docs/records.md
    ("GET", _TABLE_PATH + "/replay", None, {200: "replay"}),
    ("POST", r"/api/replay", None, {200: "replay"}),
    ("POST", _TABLE_PATH + "/review", None, {202: "review_progress"}),
    ("GET", _TABLE_PATH + "/review", None, {200: "review_progress"}),
    ("POST", r"/api/review", None, {202: "review_progress"}),
    ("GET", r"/api/review/[^/]+", None, {200: "review_progress"}),
    ("GET", r"/api/learn", None, {200: "lesson_list"}),
    ("GET", r"/api/learn/[^/]+/[^/]+", None, {200: "lesson_frame"}),
    ("POST", r"/api/learn/[^/]+/[^/]+", "lesson_move", {200: "lesson_answer"}),
    ("GET", r"/api/account", None, {200: "account"}),
    ("DELETE", r"/api/account", "delete_account", {200: ""}),
    ("POST", r"/api/account/signup", "sign_up", {201: "signed_up"}),
    ("POST", r"/api/account/signin", "sign_in", {200: "account"}),
    ("POST", r"/api/account/signout", None, {200: "account"}),
    ("POST", r"/api/account/password", "change_password", {200: ""}),
    ("GET", r"/api/account/games", None, {200: "my_games"}),
    ("GET", r"/api/players/[^/]+", None, {200: "player_profile"}),
    ("GET", r"/api/leaderboards/[^/]+", None, {200: "leaderboard"}),
    ("POST", r"/api/account/report", "report_request", {201: "reported"}),
    ("GET", r"/api/account/blocks", None, {200: "blocks"}),
    ("POST", r"/api/account/blocks", "block_request", {200: "blocks"}),
    ("POST", r"/api/account/unblock", "unblock_request", {200: "blocks"}),
    ("POST", r"/api/quick", "quick_request", {201: "quick_joined"}),
    ("GET", r"/api/quick", None, {200: "quick_state"}),
    ("DELETE", r"/api/quick", None, {200: "quick_left"}),
    ("POST", r"/api/turns", "turns_request", {200: "turns"}),
]


def check_answer(response: Any) -> None:
    """Validate a lobby answer (an ``httpx`` response) against its schema.

    The schemas are ``docs/protocol.md``'s "Lobby schemas".

    Every answer of a lobby route is checked (an error: ``http_error``), and so is the body of
    a request that the server accepted. The apps of :func:`app_client` check every answer.
    """
    request = response.request
    path = request.url.path
    route = next(
        (r for r in LOBBY_ROUTES if request.method == r[0] and re.fullmatch(r[1], path)), None
    )
    if route is None:
        return
    _, _, body, answers = route
    response.read()
    if response.status_code >= 400:
        LOBBY_VALIDATORS["http_error"].validate(response.json())
        return
    name = answers.get(response.status_code)
    if name is None:
        assert not answers, (path, response.status_code, response.text)
        return
    if name:  # ("": an answer without a schema of its own)
        LOBBY_VALIDATORS[name].validate(response.json())
    if name == "lesson_answer":  # its frame is a lesson's frame
        LOBBY_VALIDATORS["lesson_frame"].validate(response.json()["frame"])
    if body is not None and request.content.strip():
        LOBBY_VALIDATORS[body].validate(json.loads(request.content))


def check_frame(frame: Any) -> dict[str, Any]:
    """Validate a server frame against its schema; return it."""
    assert isinstance(frame, dict) and frame.get("type") in VALIDATORS, frame
    VALIDATORS[frame["type"]].validate(frame)
    return frame


@contextmanager
def app_client(url: str, seed: int = 1, **kwargs: Any) -> Iterator[TestClient]:
    """A test client of an app on ``url``, started (lifespan run) and stopped afterwards.

    Every lobby answer it gets is validated against its schema (:func:`check_answer`).
    """
    seeds = itertools.count(seed)
    kwargs.setdefault("rate", 10_000.0)
    kwargs.setdefault("burst", 10_000)
    with TestClient(create_app(url, seeds=lambda: next(seeds), **kwargs)) as client:
        client.event_hooks = {"request": [], "response": [check_answer]}
        yield client


def new_table(
    client: TestClient,
    game: str,
    players: int,
    seats: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    start: bool = True,
    **settings: Any,
) -> tuple[int, dict[int, str]]:
    """Create a table (every seat reserved by default) and start it; return id and tokens.

    ``settings`` go into the request as they are (``clock``, ``bot_after_leave``).
    """
    if seats is None:
        seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(players)]
    body = {"game": game, "players": players, "seats": seats, "options": options or {}}
    body.update(settings)
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    tokens = {int(k): v for k, v in data["tokens"].items()}
    if start:
        first = next(iter(tokens.values()), None)
        headers = {"Authorization": f"Bearer {first}"} if first else {}
        started = client.post(f"/api/tables/{data['table']['id']}/start", headers=headers)
        assert started.status_code == 200, started.text
    return data["table"]["id"], tokens


def start_table(
    client: TestClient, table: int, tokens: dict[int, str], clients: list[Seat]
) -> None:
    """Start the table once everyone is connected; every client reads the new snapshot."""
    answer = client.post(
        f"/api/tables/{table}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    assert answer.status_code == 200, answer.text
    for c in clients:
        assert c.receive()["status"] == "running"


class Seat:
    """A WebSocket client of one seat (``None``: a spectator) that keeps every frame.

    A client of display patches (``patch=1``) applies each delta's ``patch`` to the display
    model it holds, as the browser does: :attr:`frames` hold the frames with that model as
    ``display``, :attr:`raw` the frames as they came.
    """

    def __init__(
        self,
        ws: Any,
        seat: int | None,
        check_every: int = 1,
        patches: bool = False,
        views: bool = False,
    ) -> None:
        self.ws = ws
        self.seat = seat
        #: the client asked for the game's raw views (``view=1``): snapshots and deltas carry
        #: ``view`` exactly then
        self.views = views
        self.frames: list[dict[str, Any]] = []
        self.raw: list[dict[str, Any]] = []
        #: validate every n-th frame against its schema (every frame by default)
        self.check_every = check_every
        self.patches = patches
        #: the display model of the last snapshot or delta
        self.display: Any = None

    @property
    def last(self) -> dict[str, Any]:
        """The last frame that was not an error or a pong."""
        return next(f for f in reversed(self.frames) if f["type"] in ("snapshot", "delta"))

    def receive(self) -> dict[str, Any]:
        """The next frame, checked against its schema."""
        frame: dict[str, Any] = self.ws.receive_json()
        if len(self.frames) % self.check_every == 0 or frame.get("type") != "delta":
            check_frame(frame)
        self.raw.append(frame)
        if frame.get("type") == "delta" and "patch" in frame:
            assert self.patches, "a client that did not ask for patches got one"
            frame = {k: v for k, v in frame.items() if k != "patch"}
            frame["display"] = apply_patch(self.display, self.raw[-1]["patch"])
        if frame.get("type") in ("snapshot", "delta"):
            assert ("view" in frame) == self.views, "a raw view is sent exactly when asked for"
            self.display = frame["display"]
        self.frames.append(frame)
        return frame

    def send(self, message: dict[str, Any]) -> None:
        """Send a message (valid ones are checked against the client schemas first)."""
        kind = message.get("type")
        if kind in CLIENT_VALIDATORS:
            CLIENT_VALIDATORS[kind].validate(message)
        self.ws.send_text(json.dumps(message))

    def act(self, action: str | int) -> None:
        """Send an action answering the last frame."""
        self.send({"type": "action", "seq": self.last["seq"], "action": action})


@contextmanager
def seats(
    client: TestClient,
    table: int,
    tokens: dict[int, str],
    spectator: bool = True,
    check_every: int = 1,
    patches: bool = False,
    views: bool = True,
) -> Iterator[list[Seat]]:
    """One connected client per token (in seat order), plus a spectator last; snapshots read.

    ``patches``: the clients ask for display patches (``patch=1``); ``views``: for the game's
    raw views (``view=1``), which the tests compare with the state's.
    """
    extra = ("&patch=1" if patches else "") + ("&view=1" if views else "")
    with contextlib.ExitStack() as stack:
        out = []
        for seat in sorted(tokens):
            ws = stack.enter_context(
                client.websocket_connect(f"/ws/tables/{table}?token={tokens[seat]}{extra}")
            )
            out.append(Seat(ws, seat, check_every, patches, views))
        if spectator:
            ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{table}?{extra[1:]}"))
            out.append(Seat(ws, None, check_every, patches, views))
        for s in out:
            assert s.receive()["type"] == "snapshot"
        yield out


def play_out(clients: list[Seat], choose: Any, max_steps: int = 5000) -> int:
    """Play until the game ends: the seat ``choose`` picks acts, every client reads the delta.

    ``choose(clients_to_act) -> (client, action)``. Returns the number of steps.
    """
    steps = 0
    while clients[0].last["outcome"] is None:
        to_act = [c for c in clients if c.last["legal"]]
        assert to_act, "nobody may act, yet the game is not over"
        client, action = choose(to_act)
        client.act(action)
        for c in clients:
            frame = c.receive()
            assert frame["type"] == "delta", frame
        steps += 1
        assert steps < max_steps
    return steps


def wait_for(check: Callable[[], Any], what: str, tries: int = 400, pause: float = 0.025) -> Any:
    """Poll ``check()`` until it answers something true, and return that answer.

    Bounded in count (``tries`` looks, ``pause`` seconds apart), never an assertion about
    speed: after the last look, an :class:`AssertionError` says what never came (``what``).

    >>> wait_for(lambda: 3, "three")
    3
    """
    for _ in range(tries):
        found = check()
        if found:
            return found
        time.sleep(pause)
    raise AssertionError(f"never: {what}")


class ThreadedServer:
    """A uvicorn server serving ``config``'s app in a thread of this process, on ``sock``.

    For the tests that talk to a real server over raw sockets (limits, proxies, a graceful
    stop); ``server``: the :class:`uvicorn.Server` to run (default: a plain one of ``config``).
    ``stop`` ends it and closes the socket.
    """

    def __init__(self, config: Any, sock: Any, server: Any = None) -> None:
        import threading

        import uvicorn

        self.sock = sock
        self.server = uvicorn.Server(config) if server is None else server
        self.thread = threading.Thread(target=self.server.run, args=([sock],), daemon=True)
        self.thread.start()
        wait_for(lambda: self.server.started, "the server to start", pause=0.05)

    def stop(self) -> None:
        """Stop the server and close its socket."""
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()
