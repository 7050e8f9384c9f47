"""``make run`` (``python -m campfire.server.web``) as a newcomer runs it in a terminal.

- Closing the terminal stops the server as ``Ctrl+C`` does (the table sockets are asked to
  reconnect, the process exits 129), whoever leads the terminal's session: the server itself
  (it gets ``SIGHUP``) or GNU make, which does not pass ``SIGHUP`` on (the server sees the
  terminal hang up). The processes run under a real pseudo-terminal in a new session, on a free
  port, with a temporary data directory; the deadlines only bound how long we wait.
- The port: 8000 unless asked (``make run PORT=N``); a port asked for that is taken is an error
  that says who holds it; 8000 taken is said, with the port used instead.
- The data: ``CAMPFIRE_DATA_DIR`` moves the games' database, and the server says where it is.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import websockets

from campfire import _compiled
from campfire.server import web
from campfire.server.db import default_database_url

from ..tui.test_hangup import DEADLINE, LEADER, WAITING_PARENT, Terminal, terminal
from .live_server import free_port, http
from .test_kill9 import GAME, PLAYERS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals only")


def make_run_command() -> list[str]:
    """The command ``make run`` runs, with this Python for the venv's (``$(BIN)/python``)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    lines = [row.strip() for row in recipe.splitlines() if row.startswith("\t")]
    # first the compiled build (scripts/compile.py), then the server
    assert lines[0] == "@$(BIN)/python scripts/compile.py", lines
    head = "exec $(BIN)/python -m campfire.server.web"
    assert lines[-1].startswith(head), lines  # `exec`: no shell between make and the server
    return [sys.executable, "-m", "campfire.server.web"]


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # pragma: no cover - a process of the group is someone else's
        return False
    return False


def _nothing_left(term: Terminal) -> bool:
    """Whether the process and everything it started are gone (waits up to the deadline)."""
    for _ in range(int(DEADLINE * 10)):
        if term.process.poll() is not None and _group_gone(term.process.pid):
            return True
        time.sleep(0.1)
    return False


def _new_table(base: str) -> tuple[int, str]:
    seats = [{"kind": "reserved", "nickname": f"P{i}"} for i in range(PLAYERS)]
    status, text = http("POST", f"{base}/api/tables", {"game": GAME, "seats": seats})
    assert status == 201, text
    created = json.loads(text)
    return created["table"]["id"], created["tokens"]["0"]


@contextmanager
def make_run_terminal(command: list[str], data: Path, leader: str) -> Iterator[Terminal]:
    """``command`` on a pseudo-terminal, data in ``data``, no browser; read up to the lobby."""
    environ: dict[str, str | None] = {
        "CAMPFIRE_DATA_DIR": str(data),
        "DISPLAY": None,  # no browser window from a test
        "WAYLAND_DISPLAY": None,
    }
    with terminal(command, leader=leader, environ=environ) as term:
        term.read_until(b"Campfire's lobby: ")
        yield term


def _close_with_a_client_at_a_table(term: Terminal, port: int) -> int | None:
    """Close the terminal while a client sits at a table; the close code the client got."""
    base = f"http://127.0.0.1:{port}"
    for _ in range(int(DEADLINE * 10)):  # ready: the database is migrated
        try:
            if http("GET", f"{base}/healthz")[0] == 200:
                break
        except OSError:
            pass
        time.sleep(0.1)
    table, token = _new_table(base)

    async def seated() -> int | None:
        url = f"ws://127.0.0.1:{port}/ws/tables/{table}?token={token}"
        async with websockets.connect(url) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
            assert first["type"] == "snapshot", first
            term.close()  # the terminal window goes away
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), DEADLINE)
            return closed.value.rcvd.code if closed.value.rcvd is not None else None

    return asyncio.run(seated())


@pytest.mark.parametrize(
    "leader", [WAITING_PARENT, LEADER], ids=["under-a-parent-like-make", "leading-the-session"]
)
def test_closing_the_terminal_stops_the_server_cleanly(leader: str, tmp_path: Path) -> None:
    port = free_port()
    with make_run_terminal([*make_run_command(), "--port", str(port)], tmp_path, leader) as term:
        code = _close_with_a_client_at_a_table(term, port)
        assert code == 1012  # as on Ctrl+C: the clients are asked to reconnect
        assert term.wait() == 128 + signal.SIGHUP  # it stopped by itself, not killed
        assert _nothing_left(term)
    assert f"Games are kept in {tmp_path / 'campfire.db'}".encode() in term.output.replace(
        b"\r\n", b""
    ).replace(b"\n", b"")
    assert (tmp_path / "campfire.db").exists()


def test_closing_the_terminal_of_make_run_leaves_no_process(tmp_path: Path) -> None:
    # `make run` itself as the terminal's command (as `tmux new-session 'make run'`): make leads
    # the session and does not pass the hang-up on; the server must still stop, and make with it.
    make = shutil.which("make")
    if make is None or not (ROOT / ".venv" / ".installed-server").exists():
        pytest.skip("needs make and the project's .venv set up by make (with the server extra)")
    if subprocess.run([make, "-s", "-q", ".venv/.installed-server"], cwd=ROOT).returncode != 0:
        pytest.skip("`make run` would install the project first")
    port = free_port()
    # pure Python: the test is about the terminal, and must not start the compiler
    pure = f"{_compiled.PURE_ENV}=1"
    command = [make, "-s", "run", f"PORT={port}", f"CAMPFIRE_DATA_DIR={tmp_path}", pure]
    with make_run_terminal(command, tmp_path, LEADER) as term:
        assert _close_with_a_client_at_a_table(term, port) == 1012
        assert term.wait() is not None
        assert _nothing_left(term)
    assert (tmp_path / "campfire.db").exists()


def test_sighup_ignored_leaves_the_server_running_for_nohup() -> None:
    # `nohup make run &`: whoever ignores the hang-up wants the server to outlive the terminal
    stop = web.TerminalStop()
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        assert not stop.install()
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)


# ----- the port and the data -----------------------------------------------------------------


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """The server replaced: the options each server was made with (nothing is served)."""
    import uvicorn

    from campfire.server import graceful_server

    class NoStop:  # no signal handler nor terminal watch in the test process
        status = None

        def install(self) -> bool:
            return False

    calls: list[dict[str, object]] = []

    class NoServer:
        started = True

        def __init__(self, config: uvicorn.Config, **kwargs: object) -> None:
            calls.append({"host": config.host, "port": config.port})

        def run(self) -> None:
            pass

    monkeypatch.setattr(graceful_server, "GracefulServer", NoServer)
    # (making the config would set this process's logging as a server's: other tests' too)
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    monkeypatch.setattr(web, "TerminalStop", NoStop, raising=False)
    return calls


def test_a_port_asked_for_that_is_taken_is_an_error_that_says_so(
    no_server: list[dict[str, object]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CAMPFIRE_DATA_DIR", str(tmp_path))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert web.main(["--port", str(port), "--no-open"]) == 1
    assert no_server == []  # not another port quietly: the links given out lead nowhere else
    err = capsys.readouterr().err
    assert f"port {port} on 127.0.0.1 is taken by another program" in err
    assert "make run PORT=N" in err


def test_the_default_port_taken_says_which_port_is_used_instead(
    no_server: list[dict[str, object]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CAMPFIRE_DATA_DIR", str(tmp_path))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        monkeypatch.setattr(web, "DEFAULT_PORT", taken)
        assert web.main(["--no-open"]) == 0
    (call,) = no_server
    used = call["port"]
    assert used != taken
    out = capsys.readouterr().out
    assert f"Port {taken} is taken by another program; this server listens on port {used}" in out
    assert f"Campfire's lobby: http://127.0.0.1:{used}/" in out
    assert f"Games are kept in {tmp_path / 'campfire.db'}" in out


def test_campfire_data_dir_moves_the_server_s_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a second clone keeps its own games: `make run CAMPFIRE_DATA_DIR=DIR`
    monkeypatch.setenv("CAMPFIRE_DATA_DIR", str(tmp_path / "data"))
    assert default_database_url() == f"sqlite:///{tmp_path / 'data' / 'campfire.db'}"
    assert (tmp_path / "data").is_dir()


def _dry_run(*args: str, env: dict[str, str] | None = None) -> str:
    """The command line ``make -n run ARGS`` would run (nothing is run)."""
    make = shutil.which("make")
    if make is None:
        pytest.skip("needs make")
    ran = subprocess.run(
        [make, "-n", "-s", "run", "VENV=/nonexistent/venv", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=True,
    )
    return ran.stdout.splitlines()[-1]


def test_make_run_builds_the_compiled_build_first() -> None:
    make = shutil.which("make")
    if make is None:
        pytest.skip("needs make")
    ran = subprocess.run(
        [make, "-n", "-s", "run", "VENV=/nonexistent/venv"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert ran.stdout.splitlines()[-2:] == [
        "/nonexistent/venv/bin/python scripts/compile.py",
        "exec /nonexistent/venv/bin/python -m campfire.server.web",
    ]


def test_make_run_takes_the_port_and_address_from_its_command_line() -> None:
    base = "exec /nonexistent/venv/bin/python -m campfire.server.web"
    assert _dry_run() == base
    assert _dry_run("PORT=8080") == f"{base} --port '8080'"
    assert _dry_run("HOST=0.0.0.0", "PORT=8080") == f"{base} --host '0.0.0.0' --port '8080'"
    # not from the environment, where PORT and HOST often mean something else
    assert _dry_run(env={"PORT": "5000", "HOST": "box"}) == base


def test_a_port_held_by_another_campfire_server_says_so(
    no_server: list[dict[str, object]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # an earlier `make run` still holds the port: say so, and where it answers
    import http.server
    import threading

    class Healthz(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"status": "ok"}).encode()
            self.send_response(200 if self.path == "/healthz" else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    monkeypatch.setenv("CAMPFIRE_DATA_DIR", str(tmp_path))
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Healthz) as other:
        threading.Thread(target=other.serve_forever, daemon=True).start()
        port = other.server_address[1]
        try:
            assert web.main(["--port", str(port), "--no-open"]) == 1
            monkeypatch.setattr(web, "DEFAULT_PORT", port)
            assert web.main(["--no-open"]) == 0
        finally:
            other.shutdown()
    out, err = capsys.readouterr()
    url = f"http://127.0.0.1:{port}/"
    assert f"another Campfire server answers at {url}; stop it (Ctrl+C in its terminal)" in err
    assert f"Port {port} is taken: another Campfire server answers at {url}" in out
    assert len(no_server) == 1
