"""The terminal app never outlives its terminal (closed window, SIGHUP, SIGTERM).

The process tests start ``campfire play`` under a real pseudo-terminal that is the controlling
terminal of a new session (as a terminal window starts its command), wait until the app has drawn,
and then close the terminal or signal the app. The deadlines only bound how long we wait for the
process to end: they are generous liveness limits, not timing assertions.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from campfire.core import Record
from campfire.tui.app import GameScreen
from campfire.tui.terminal import HANG_UP_STATUS, _GuardedFile, terminal_gone

from .helpers import SIZE, make_app, make_late_app, play_to_end, seats

ROOT = Path(__file__).resolve().parents[2]

#: Wait at most this long for the app to draw, and for the process to end (liveness bounds).
DEADLINE = 60.0

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals only")

#: Run the command as the leader of a new session with the pseudo-terminal (its stdin) as its
#: controlling terminal, as a terminal window (or tmux) starts its command: with the hang-up
#: signal's default disposition too, whatever the test process had (an ignored signal is
#: inherited across exec, and a command started under ``nohup`` rightly outlives its terminal)
LEADER = (
    "import fcntl, os, signal, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "signal.signal(signal.SIGHUP, signal.SIG_DFL); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)

#: The same, but the session leader is a parent that, like GNU make, catches SIGHUP without
#: passing it on and waits for the command: the command never gets the hang-up signal.
WAITING_PARENT = (
    "import fcntl, signal, subprocess, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "signal.signal(signal.SIGHUP, lambda *_: None); "
    "sys.exit(subprocess.call(sys.argv[1:]))"
)

#: What Textual writes when it leaves the alternate screen: the terminal was restored.
LEFT_SCREEN = b"\x1b[?1049l"


@dataclass
class Terminal:
    """A process on a pseudo-terminal, and everything it wrote."""

    process: subprocess.Popen[bytes]
    master: int | None
    output: bytearray = field(default_factory=bytearray)

    def read_until(self, text: bytes) -> None:
        """Read the output until ``text`` appears (fails after :data:`DEADLINE`)."""
        assert self.master is not None
        for _ in range(int(DEADLINE * 10)):
            if text in self.output:
                return
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:  # the slave side is gone
                    break
        raise AssertionError(f"{text!r} never appeared; output ended with {self.output[-300:]!r}")

    def close(self) -> None:
        """Close the terminal (the window goes away)."""
        if self.master is not None:
            os.close(self.master)
            self.master = None

    def wait(self) -> int | None:
        """The exit status once the process ended, reading its output meanwhile; ``None``
        if it is still running after :data:`DEADLINE`."""
        for _ in range(int(DEADLINE * 10)):
            status = self.process.poll()
            if status is not None:
                return status
            if self.master is None:
                select.select([], [], [], 0.1)
            elif select.select([self.master], [], [], 0.1)[0]:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:
                    self.close()
        return None


@contextmanager
def terminal(
    command: Sequence[str], leader: str = LEADER, environ: Mapping[str, str | None] | None = None
) -> Iterator[Terminal]:
    """Start ``command`` on a fresh 80×24 pseudo-terminal in a new session (led by ``leader``).

    ``environ`` changes the environment (``None``: unset); the data directory is a fresh
    temporary one unless it names another.
    """
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    # an unfinished game is saved on leaving: never into the real user data directory
    env["CAMPFIRE_DATA_DIR"] = tempfile.mkdtemp(prefix="campfire-hangup-")
    env.pop("TEXTUAL", None)
    for name, value in (environ or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    process = subprocess.Popen(
        [sys.executable, "-c", leader, *command],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    term = Terminal(process, master)
    try:
        yield term
    finally:
        term.close()
        if process.poll() is None:
            process.kill()
            process.wait()


PLAY = [sys.executable, "-m", "campfire", "play"]


def test_closing_the_terminal_ends_the_app_when_nobody_passes_the_hang_up_on(
    tmp_path: Path,
) -> None:
    # A game in progress (real-time Apache redraws ten times a second) under a parent that does
    # not pass SIGHUP on, as `make play` as the terminal's command: the app sees the terminal go.
    save = tmp_path / "game.json"
    command = [*PLAY, "apache", "--seed", "3", "--save", str(save)]
    with terminal(command, leader=WAITING_PARENT) as term:
        term.read_until(b"Apache")
        term.close()
        assert term.wait() == HANG_UP_STATUS
    assert not save.exists()  # an unfinished game goes to <data>/unfinished, not --save


def test_closing_the_terminal_ends_the_app_leading_the_session() -> None:
    # The app leads the session (started as the terminal's command): the hang-up signal.
    with terminal(PLAY) as term:
        term.read_until(b"Play")
        term.close()
        assert term.wait() == HANG_UP_STATUS


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_a_hang_up_or_terminate_signal_leaves_cleanly(signum: int, tmp_path: Path) -> None:
    # Leaving cleanly (not killed by the signal): the terminal is restored, the status tells why.
    with terminal([*PLAY, "tracker", "--seed", "1", "--save", str(tmp_path / "t.json")]) as term:
        term.read_until(b"Tracker")
        drawn = len(term.output)
        term.process.send_signal(signum)
        assert term.wait() == 128 + signum
        assert LEFT_SCREEN in term.output[drawn:]


def test_closing_the_terminal_of_make_play_ends_make_and_the_app() -> None:
    # `make play` as the terminal's command: make leads the session and gets the hang-up, but
    # does not pass it on (it waits for its children); the app must still end, and make with it.
    make = shutil.which("make")
    if make is None or not (ROOT / ".venv" / ".installed").exists():
        pytest.skip("needs make and the project's .venv set up by make")
    if subprocess.run([make, "-s", "-q", ".venv/.installed"], cwd=ROOT).returncode != 0:
        pytest.skip("`make play` would install the project first")
    with terminal([make, "-s", "play"]) as term:
        term.read_until(b"Play")
        term.close()
        assert term.wait() is not None


def test_make_play_execs_the_app() -> None:
    # No shell stays between make and the app (signals and the exit status go straight through).
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("\nplay:", 1)[1].split("\n\n", 1)[0]
    assert "\texec $(BIN)/campfire play" in recipe


def test_terminal_gone_sees_a_hung_up_pseudo_terminal() -> None:
    master, slave = os.openpty()
    try:
        assert not terminal_gone(slave)
        os.close(master)
        assert terminal_gone(slave)
    finally:
        os.close(slave)


def test_writes_to_a_hung_up_terminal_are_dropped_not_raised() -> None:
    # Textual writes from a thread that an EIO would kill, and then its queue blocks the app.
    master, slave = os.openpty()
    os.close(master)
    with open(slave, "w", encoding="utf-8") as raw:
        with pytest.raises(OSError):
            raw.write("frame")
            raw.flush()
        guarded = _GuardedFile(raw)
        guarded.write("frame")
        guarded.flush()
        assert guarded.failed
        assert guarded.write("another frame") == len("another frame")
        with contextlib.suppress(OSError):  # what is left in the buffer cannot be written
            raw.close()


def test_hang_up_in_a_game_leaves_as_quit_does(tmp_path: Path) -> None:
    app, _clock = make_app("tracker", seats(None, "easy"), tmp_path)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            await pilot.press("5", "enter")  # a move, so that there is something to keep
            app.hang_up()
            await pilot.pause()

    asyncio.run(run())
    assert app.return_code == HANG_UP_STATUS
    assert not (tmp_path / "game.json").exists()  # not finished: no record of a finished game
    (saved,) = (tmp_path / "unfinished").glob("tracker-*.json")  # saved to resume, as Ctrl+Q
    assert Record.load(saved).outcome is None


@pytest.mark.slow
def test_hang_up_after_the_game_keeps_its_record(tmp_path: Path) -> None:
    """The game is resumed at its last player's two final turns (Tracker §5.1), played to its
    end by keys, and then the terminal hangs up on the score screen."""

    def final_turns(state: Mapping[str, Any]) -> bool:
        return bool(state["phase"] != "normal")

    app, clock = make_late_app("tracker", seats(None, "easy"), tmp_path, final_turns)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await play_to_end(app, clock, pilot)
            app.hang_up(128 + signal.SIGHUP)
            app.hang_up(128 + signal.SIGTERM)  # only the first call counts
            await pilot.pause()

    asyncio.run(run())
    assert app.return_code == HANG_UP_STATUS
    assert (tmp_path / "game.json").exists()


def test_closing_the_terminal_ends_watching_a_replay() -> None:
    record = ROOT / "examples" / "records" / "tracker-explicit-setup.json"
    with terminal([sys.executable, "-m", "campfire", "replay", str(record), "--watch"]) as term:
        term.read_until(b"Tracker")
        term.close()
        assert term.wait() == HANG_UP_STATUS
