"""End to end behind nginx: the shipped ``deploy/nginx/campfire.conf`` (``docs/deploy.md``) in
front of ``campfire serve --workers 2`` (PostgreSQL and Redis), over TLS on loopback.

nginx is Debian's package (installed with apt-get when it is missing, saying so), started as a
child process with a temporary prefix, a self-signed certificate and free ports
(``benchmarks/nginx_front.py``). A person and two bots play a whole game: the table is made
through the lobby over HTTPS, the person plays over WSS, the certificate verified against the
self-signed one. Clients connect from addresses of their own (127.0.0.5 and up), so that
what the server saw can be told from the proxy's 127.0.0.1: its log names them, its cap per
address counts them, and a foreign ``Origin`` is refused through the proxy.

Waits are bounded in count and generous (a loaded 2-core machine); no duration is asserted.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import ssl
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, cast

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.benchmark_scripts import load_script

from .conftest import REDIS
from .helpers import Seat
from .live_server import LiveServer

pytestmark = pytest.mark.slow

PUBLIC = "https://games.example.org"
#: the cap per address the server is started with (each of its two processes counts its own)
CAP = 3
DOCS = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
#: what each server process logs once it serves, behind the proxy
PUBLIC_SAID = f"campfire serve: public at {PUBLIC}/ (trusted proxies: 127.0.0.1)"

front_module = load_script("nginx_front")


class Through:
    """The server behind nginx: where to reach it, how to verify it, what it logged."""

    def __init__(self, server: LiveServer, front: Any) -> None:
        self.server = server
        self.front = front
        self.context: ssl.SSLContext = front.ssl_context()

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        source: str = "127.0.0.5",
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """One HTTPS request to nginx from ``source``: status, headers, body."""
        conn = http.client.HTTPSConnection(
            "127.0.0.1",
            self.front.https_port,
            context=self.context,
            timeout=60,
            source_address=(source, 0),
        )
        try:
            sent = dict(headers or {})
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                sent["Content-Type"] = "application/json"
            if token is not None:
                sent["Authorization"] = f"Bearer {token}"
            conn.request(method, path, body=data, headers=sent)
            answer = conn.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            conn.close()

    def socket(
        self, path: str, source: str = "127.0.0.5", origin: str | None = None
    ) -> ClientConnection:
        """A table socket over WSS through nginx, from ``source``."""
        return connect(
            f"{self.front.ws}{path}",
            ssl=self.context,
            source_address=(source, 0),
            additional_headers={"Origin": origin} if origin else None,
            open_timeout=60,
        )

    def server_log(self) -> str:
        return self.server.log.read_text(errors="replace")

    def socket_retried(self, path: str, source: str, attempts: int = 3) -> ClientConnection:
        """:meth:`socket`, tried again when the connection fails below HTTP (at most ``attempts``).

        Twice in many runs (2026-12-04) the first TLS connection through nginx broke while the
        upgrade request was being sent, before nginx or the server logged it; ``websockets``'
        sync client then waited forever for its reading thread, so the opening runs in a
        thread of its own, given 30 s. A refusal in HTTP (``InvalidStatus``: the cap's 429) is
        an answer, never tried again.
        """
        attempt = 0
        while True:
            attempt += 1
            box: dict[str, Any] = {}

            def open_it(box: dict[str, Any] = box) -> None:
                try:
                    box["ws"] = self.socket(path, source=source)
                except BaseException as exc:  # handed to the test's thread
                    box["error"] = exc

            opener = threading.Thread(target=open_it, daemon=True)
            opener.start()
            opener.join(30)
            if "ws" in box:
                return cast(ClientConnection, box["ws"])
            error = box.get("error") or TimeoutError(f"opening {path} through nginx hung 30 s")
            if isinstance(error, InvalidStatus) or attempt == attempts:
                raise error
            print(f"opening {path} through nginx failed ({error!r}): again", file=sys.stderr)

    def diagnosis(self, opened: int) -> str:
        """What nginx and the server logged, for a failure's message."""
        return (
            f"after {opened} sockets opened\n--- nginx's error log:\n"
            f"{self.front.error_log()[-3000:]}\n--- nginx's access log:\n"
            f"{self.front.access_log()[-2000:]}\n--- the server's log:\n{self.server_log()[-4000:]}"
        )


@pytest.fixture(scope="module")
def through(pg_schema: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Through]:
    from campfire.server.cluster import check_redis

    from .conftest import fresh_schema

    try:
        front_module.ensure_command("nginx", "nginx")
    except RuntimeError as exc:
        pytest.fail(str(exc))
    check_redis(REDIS)
    home = tmp_path_factory.mktemp("nginx")
    with ExitStack() as stack:
        url = stack.enter_context(fresh_schema(pg_schema))
        server = LiveServer(
            url,
            home,
            args=(
                *("--workers", "2", "--redis-url", REDIS),
                *("--trusted-proxies", "127.0.0.1", "--public-origin", PUBLIC),
                *("--max-connections-per-address", str(CAP)),
            ),
        )
        stack.callback(server.stop)
        front = stack.enter_context(front_module.nginx_front(server.port))
        through = Through(server, front)
        # both processes serving (each says where it is public once its start is done): nginx's
        # first answer came from one of them, and the tests count on what each one holds
        for _ in range(1200):  # readiness only: no duration is asserted
            if through.server_log().count(PUBLIC_SAID) >= 2:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the second server process did not start:\n" + through.server_log()[-3000:])
        yield through


class _Json:
    """The ``receive_json``/``send_text`` of a test client, over a real WebSocket."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    def receive_json(self) -> Any:
        return json.loads(self.ws.recv(timeout=60))

    def send_text(self, text: str) -> None:
        self.ws.send(text)


def test_a_person_plays_a_game_with_bots_over_wss(through: Through) -> None:
    seats = [
        {"kind": "reserved", "nickname": "Anna"},
        {"kind": "bot", "level": "easy"},
        {"kind": "bot", "level": "easy"},
    ]
    status, _, body = through.request(
        "POST", "/api/tables", {"game": "tracker", "players": 3, "seats": seats}
    )
    assert status == 201, body
    created = json.loads(body)
    table, token = created["table"]["id"], created["tokens"]["0"]
    status, _, body = through.request("POST", f"/api/tables/{table}/start", {}, token)
    assert status == 200, body
    with through.socket(f"/ws/tables/{table}?token={token}", origin=PUBLIC) as ws:
        person = Seat(_Json(ws), 0)
        assert person.receive()["type"] == "snapshot"
        acted: set[int] = set()
        for _ in range(20_000):  # bounded: a game of Tracker for three is far shorter
            last = person.last
            if last["outcome"] is not None:
                break
            if last["legal"] and last["seq"] not in acted:
                acted.add(last["seq"])
                person.act(last["legal"][0]["notation"])
            frame = person.receive()
            assert frame["type"] in ("delta", "snapshot"), frame
        else:
            raise AssertionError("the game did not end")
    assert acted, "the person never played"
    # nginx's log names the socket and the person's own address, never the seat token
    log = through.front.access_log()
    assert re.search(rf'^127\.0\.0\.5 .*"GET /ws/tables/{table} HTTP/1\.1" 101', log, re.M), log
    assert token not in log
    status, _, body = through.request("GET", f"/api/tables/{table}")
    assert status == 200 and json.loads(body)["table"]["status"] == "finished", body
    status, _, record = through.request("GET", f"/api/tables/{table}/record")
    assert status == 200 and record


def test_the_server_sees_the_client_not_the_proxy(through: Through) -> None:
    # what the client claims in X-Forwarded-For is not believed: nginx appends the address it
    # saw, the server reads from the right
    status, _, _ = through.request(
        "GET",
        "/healthz?probe=spoof",
        source="127.0.0.6",
        headers={"X-Forwarded-For": "203.0.113.9"},
    )
    assert status == 200
    line = None
    for _ in range(200):  # the access log is written once the answer is sent
        line = next(
            (x for x in through.server_log().splitlines() if "/healthz?probe=spoof" in x), None
        )
        if line is not None:
            break
        time.sleep(0.05)
    assert line is not None, through.server_log()[-3000:]
    assert "127.0.0.6" in line and "203.0.113.9" not in line, line
    # each process says where it is public, and whom it believes
    assert through.server_log().count(PUBLIC_SAID) == 2


def test_the_cap_per_address_counts_each_client_of_the_proxy(through: Through) -> None:
    status, _, body = through.request(
        "POST", "/api/tables", {"game": "tracker", "players": 2, "seats": [{"kind": "open"}] * 2}
    )
    assert status == 201, body
    table = json.loads(body)["table"]["id"]
    with ExitStack() as held:
        opened, refused = 0, None
        # each of the two processes lets 127.0.0.7 (no other test's address: nothing of theirs
        # still counted) hold CAP: one of the first 2 * CAP + 1 is refused, wherever the kernel
        # sends them
        for _ in range(2 * CAP + 1):
            try:
                ws = held.enter_context(
                    through.socket_retried(f"/ws/tables/{table}", source="127.0.0.7")
                )
            except InvalidStatus as exc:
                refused = exc.response
                break
            except Exception as exc:  # say what nginx and the server saw
                raise AssertionError(through.diagnosis(opened)) from exc
            json.loads(ws.recv(timeout=60))  # the snapshot: the server holds the socket
            opened += 1
        assert refused is not None, "the cap per address was never reached"
        assert opened >= CAP
        assert refused.status_code == 429
        assert json.loads(refused.body)["error"]["code"] == "too_many_connections"
        # another client of the same proxy (all of them arrive from 127.0.0.1) is served (tried
        # again as the ones above are: once in a loaded run its TLS connection broke before
        # the upgrade's answer, 2026-12-06)
        with through.socket_retried(f"/ws/tables/{table}", source="127.0.0.8") as other:
            assert json.loads(other.recv(timeout=60))["type"] == "snapshot"


def test_a_page_of_another_site_cannot_open_a_socket_through_the_proxy(through: Through) -> None:
    status, _, body = through.request(
        "POST", "/api/tables", {"game": "tracker", "players": 2, "seats": [{"kind": "open"}] * 2}
    )
    assert status == 201, body
    table = json.loads(body)["table"]["id"]
    with pytest.raises(InvalidStatus) as refused:
        through.socket(f"/ws/tables/{table}", origin="https://evil.example")
    assert refused.value.response.status_code == 403
    assert json.loads(refused.value.response.body)["error"]["code"] == "bad_origin"
    with through.socket(f"/ws/tables/{table}") as ws:  # no Origin: not a browser, let in
        assert json.loads(ws.recv(timeout=60))["type"] == "snapshot"


def test_tls_http2_redirect_static_files_and_the_body_limit(through: Through) -> None:
    front = through.front
    # HTTP/2 is offered (ALPN) over TLS 1.2 or newer; TLS 1.1 is refused
    context = front.ssl_context()
    context.set_alpn_protocols(["h2", "http/1.1"])
    with (
        socket.create_connection(("127.0.0.1", front.https_port), timeout=60) as raw,
        context.wrap_socket(raw, server_hostname="127.0.0.1") as tls,
    ):
        assert tls.selected_alpn_protocol() == "h2"
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
    old = front.ssl_context()
    old.set_ciphers("DEFAULT:@SECLEVEL=0")  # this client would speak TLS 1.1: nginx will not
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        old.minimum_version = old.maximum_version = ssl.TLSVersion.TLSv1_1
    with (
        pytest.raises((ssl.SSLError, OSError)),
        socket.create_connection(("127.0.0.1", front.https_port), timeout=60) as raw,
        old.wrap_socket(raw, server_hostname="127.0.0.1"),
    ):
        pass
    # plain HTTP sends people to HTTPS at the public name
    conn = http.client.HTTPConnection("127.0.0.1", front.http_port, timeout=60)
    conn.request("GET", "/t/12?lang=hu")
    answer = conn.getresponse()
    assert answer.status == 301
    assert answer.getheader("Location") == "https://games.example.org/t/12?lang=hu"
    conn.close()
    # static files: the browser asks each time whether they changed (no hash in their names)
    status, headers, body = through.request("GET", "/static/js/table.js")
    assert status == 200 and body
    assert headers["cache-control"] == "no-cache" and headers["etag"]
    status, _, body = through.request(
        "GET", "/static/js/table.js", headers={"If-None-Match": headers["etag"]}
    )
    assert status == 304 and body == b""
    # a body over 1 MiB is refused at the proxy, as the server refuses it: JSON 413
    conn = http.client.HTTPSConnection(
        "127.0.0.1", front.https_port, context=through.context, timeout=60
    )
    conn.putrequest("POST", "/api/replay")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(2 * 1024 * 1024))
    conn.endheaders()
    answer = conn.getresponse()
    assert answer.status == 413
    assert json.loads(answer.read())["error"]["code"] == "too_large"
    conn.close()


def test_the_documented_configuration_is_the_shipped_one() -> None:
    text = DOCS.read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", text, flags=re.S)
    assert front_module.CONFIG.read_text() in blocks


def test_a_missing_command_is_installed_with_apt_get_saying_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import os
    import shutil

    if os.geteuid() != 0:
        pytest.skip("the installer's root path (as on the test machines)")
    chmod = shutil.which("chmod")
    assert chmod is not None
    bin_dir, log = tmp_path / "bin", tmp_path / "apt-get.log"
    bin_dir.mkdir()
    fake = bin_dir / "apt-get"
    fake.write_text(
        f'#!/bin/sh\necho "$*" >> "{log}"\n'
        f'case " $* " in *" install "*) printf "#!/bin/sh\\n" > "{bin_dir}/campfire-fake-nginx"; '
        f'"{chmod}" +x "{bin_dir}/campfire-fake-nginx";; esac\n'
    )
    fake.chmod(0o755)
    (bin_dir / "id").write_text("#!/bin/sh\necho 0\n")  # as root: apt-get without sudo
    (bin_dir / "id").chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setattr(front_module.sys, "__stderr__", sys.stderr)  # (captured here)
    found = front_module.ensure_command("campfire-fake-nginx", "nginx")
    assert found == str(bin_dir / "campfire-fake-nginx")
    calls = log.read_text().splitlines()
    assert [c.split()[2] for c in calls] == ["update", "install"], calls
    assert all("DPkg::Lock::Timeout=600" in c for c in calls), calls
    said = capsys.readouterr().err
    # make test's installer (scripts/debian-package.sh), saying so
    assert "campfire: campfire-fake-nginx is missing; installing the nginx package" in said
    assert "waits up to 600 s" in said
