"""A real ``campfire serve`` in a subprocess on a free loopback port, and plain HTTP calls to it.

Used by the end-to-end tests that need a process to kill (``SIGKILL``) and start again on the
same database. Waiting loops are bounded in count; no test asserts a duration.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def http(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, str]:
    """One HTTP request with the standard library; the status and the body's text."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``campfire serve [--database-url URL] [ARGS]`` on 127.0.0.1, started and ready.

    Without a URL the server uses its default: an SQLite file in the user data directory, here
    ``home/data`` (``XDG_DATA_HOME``).
    """

    def __init__(
        self,
        database_url: str | None,
        home: Path,
        port: int | None = None,
        args: tuple[str, ...] = (),
    ) -> None:
        self.port = port if port is not None else free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.log = home / f"server-{self.port}-{time.monotonic_ns()}.log"
        env = dict(os.environ, XDG_DATA_HOME=str(home / "data"))
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "campfire.cli",
                    "serve",
                    "--port",
                    str(self.port),
                    *(["--database-url", database_url] if database_url is not None else []),
                    *args,
                ],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self._wait_ready()

    def _wait_ready(self) -> None:
        for _ in range(600):  # readiness only: no duration is asserted
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited:\n{self.log.read_text()[-3000:]}")
            try:
                if http("GET", f"{self.base}/healthz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"the server did not become ready:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush, nothing the process could still do."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        """A normal stop (SIGTERM), if it still runs."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # pragma: no cover - a stuck server
                self.kill()
