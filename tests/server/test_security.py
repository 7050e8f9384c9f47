"""Security headers on every kind of answer, and the per-address rate limits."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from campfire.server.app import create_app
from campfire.server.lobby import ERROR_CODES
from campfire.server.security import (
    AddressLimiter,
    RateLimits,
    address_key,
    client_address,
    content_security_policy,
)
from campfire.web import static_dir

from .helpers import LOBBY_VALIDATORS, check_answer, new_table
from .live_server import LiveServer

HERE = ("192.0.2.1", 40000)
ELSEWHERE = ("198.51.100.9", 40000)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def client_at(url: str, address: tuple[str, int] = HERE, **kwargs: Any) -> Iterator[TestClient]:
    """A test client of a new app, its requests coming from ``address``."""
    seeds = itertools.count(1)
    kwargs.setdefault("rate", 10_000.0)
    kwargs.setdefault("burst", 10_000)
    with TestClient(create_app(url, seeds=lambda: next(seeds), **kwargs), client=address) as c:
        c.event_hooks = {"request": [], "response": [check_answer]}
        yield c


# ----- headers ----------------------------------------------------------------------------------

#: one path of each kind of answer: pages, static files, JSON, an error, a missing page
PAGES = [
    "/",
    "/t/{table}",
    "/replay",
    "/rules/tracker",
    "/static/js/table.js",
    "/static/css/campfire.css",
    "/static/css/replay.css",
    "/static/img/campfire.svg",
    "/api/games",
    "/api/tables",
    "/api/strings?lang=hu",
    "/healthz",
    "/api/tables/999999",
    "/no/such/page",
    "/metrics",
]


def test_every_kind_of_answer_carries_the_security_headers(sqlite_url: str) -> None:
    with client_at(sqlite_url) as client:
        table, _ = new_table(client, "tracker", 2, start=False)
        for path in PAGES:
            answer = client.get(path.format(table=table))
            assert answer.status_code in (200, 404), (path, answer.status_code)
            headers = answer.headers
            policy = headers["content-security-policy"]
            assert "default-src 'self'" in policy, path
            assert "script-src 'self';" in policy and "style-src 'self';" in policy
            assert "frame-ancestors 'none'" in policy
            assert "unsafe" not in policy and "data:" not in policy
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["x-frame-options"] == "DENY"
            assert headers["referrer-policy"] == "same-origin"
        post = client.post("/api/tables", json={"game": "nope"})
        assert post.status_code == 400
        assert post.headers["x-content-type-options"] == "nosniff"


def test_the_websocket_of_the_same_host_may_be_reached() -> None:
    policy = content_security_policy("play.example.org")
    assert "connect-src 'self' ws://play.example.org wss://play.example.org;" in policy
    # a Host that is no plain name or address is never written into the header
    for bad in ("evil.org; script-src *", "a b", "x\r\nSet-Cookie: y", "*"):
        assert "connect-src 'self';" in content_security_policy(bad)


def test_the_pages_have_no_inline_script_or_style() -> None:
    """What the policy forbids is not in the client: no inline script, style or handler."""
    for page in sorted(static_dir().glob("*.html")):
        text = page.read_text()
        assert "<style" not in text, page.name
        assert not re.search(r"\sstyle\s*=", text), page.name
        assert not re.search(r"\son[a-z]+\s*=", text), page.name
        for script in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in script, (page.name, script)
        assert "javascript:" not in text and "data:" not in text
    for script in sorted(static_dir().glob("js/*.js")):
        text = script.read_text()
        assert "eval(" not in text and "new Function" not in text, script.name
        assert "style=" not in text, script.name  # (element.style is CSSOM: allowed)


# ----- client address ---------------------------------------------------------------------------


def test_client_address_and_its_key() -> None:
    assert client_address({"client": ("203.0.113.5", 1234)}) == "203.0.113.5"
    assert client_address({"client": None}) is None and client_address({}) is None
    # an IPv6 host is counted by its /64: its other addresses are the same client
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key(None) is None


# ----- lobby ------------------------------------------------------------------------------------


def lobby_limits(per_minute: int, exempt: str = "none") -> RateLimits:
    return RateLimits(lobby_per_minute=per_minute, socket_per_second=0, exempt=exempt)


def test_lobby_writes_over_the_limit_are_answered_429(sqlite_url: str) -> None:
    clock = Clock()
    with client_at(sqlite_url, rate_limits=lobby_limits(3), clock=clock) as client:
        open_seats = [{"kind": "open"}, {"kind": "open"}]
        table, _ = new_table(client, "tracker", 2, seats=open_seats, start=False)  # 1
        joined = client.post(f"/api/tables/{table}/join", json={"nickname": "A"})
        assert joined.status_code == 201
        token = {"Authorization": f"Bearer {joined.json()['token']}"}
        assert client.post(f"/api/tables/{table}/join", json={"nickname": "B"}).status_code == 201
        refused = client.post(
            f"/api/tables/{table}/start", headers={"Accept-Language": "hu", **token}
        )
        assert refused.status_code == 429
        LOBBY_VALIDATORS["http_error"].validate(refused.json())
        assert refused.json()["error"]["code"] == "rate_limited"
        assert "percenként legfeljebb 3" in refused.json()["error"]["message"]  # in Hungarian
        assert int(refused.headers["retry-after"]) == 20  # one token: 60 s / 3
        assert refused.headers["x-content-type-options"] == "nosniff"
        # reading is not limited
        assert client.get(f"/api/tables/{table}").status_code == 200
        counted = client.get("/metrics")
        assert counted.status_code == 404  # (192.0.2.1 may not read the metrics)
        assert client.app.state.metrics._errors.labels("rate_limited", "http")._value.get() == 1  # type: ignore[attr-defined]
        clock.now += 20
        assert client.post(f"/api/tables/{table}/start", headers=token).status_code == 200


def test_each_address_has_its_own_bucket(sqlite_url: str) -> None:
    clock = Clock()
    app = create_app(sqlite_url, rate_limits=lobby_limits(1), clock=clock)
    with TestClient(app, client=HERE) as here, TestClient(app, client=ELSEWHERE) as there:
        body = {"game": "tracker", "players": 2}
        assert here.post("/api/tables", json=body).status_code == 201
        assert here.post("/api/tables", json=body).status_code == 429
        assert there.post("/api/tables", json=body).status_code == 201


def test_exempt_addresses_are_not_limited(sqlite_url: str) -> None:
    limits = lobby_limits(1, exempt="192.0.2.0/24")
    with client_at(sqlite_url, rate_limits=limits) as client:
        for _ in range(3):
            assert client.post("/api/tables", json={"game": "tracker"}).status_code == 201


def test_rate_limited_is_a_lobby_error_code() -> None:
    assert "rate_limited" in ERROR_CODES


# ----- sockets ----------------------------------------------------------------------------------


def test_socket_messages_are_limited_per_address(sqlite_url: str) -> None:
    """Two connections of one address share its bucket: 2 a second, bursts of 4."""
    clock = Clock()
    limits = RateLimits(lobby_per_minute=0, socket_per_second=2, exempt="none")
    with client_at(sqlite_url, rate_limits=limits, clock=clock) as client:
        table, tokens = new_table(client, "tracker", 2)
        path = f"/ws/tables/{table}"
        with (
            client.websocket_connect(f"{path}?token={tokens[0]}") as one,
            client.websocket_connect(f"{path}?token={tokens[1]}") as two,
        ):
            assert one.receive_json()["type"] == "snapshot"
            assert two.receive_json()["type"] == "snapshot"
            for ws in (one, two, one, two):
                ws.send_json({"type": "ping"})
                assert ws.receive_json()["type"] == "pong"
            two.send_json({"type": "ping"})
            refused = two.receive_json()
            assert refused["type"] == "error" and refused["code"] == "rate_limited"
            assert "address" in refused["message"]
            clock.now += 1  # two more tokens
            one.send_json({"type": "ping"})
            assert one.receive_json()["type"] == "pong"
        metrics = client.app.state.metrics  # type: ignore[attr-defined]
        assert metrics._errors.labels("rate_limited", "socket")._value.get() == 1


# ----- the limiter's memory ---------------------------------------------------------------------


def test_the_table_of_addresses_stays_bounded() -> None:
    clock = Clock()
    limiter = AddressLimiter(1.0, 5, "none", clock=clock, max_addresses=100)
    for i in range(1000):
        limiter.take(f"10.0.{i // 250}.{i % 250}")
        assert len(limiter.buckets) <= 100
    clock.now += 10  # every bucket has filled up again: all forgotten at the next sweep
    limiter.take("10.9.9.9")
    assert list(limiter.buckets) == ["10.9.9.9"]


def test_an_idle_address_is_forgotten_but_a_busy_one_kept() -> None:
    clock = Clock()
    limiter = AddressLimiter(1.0, 2, "none", clock=clock)
    for _ in range(3):
        limiter.take("192.0.2.1")
    assert limiter.take("192.0.2.1") > 0  # empty
    limiter.take("192.0.2.2")
    clock.now += 1.5
    limiter.take("192.0.2.2")
    clock.now += 1.5  # 192.0.2.1 is full again: forgotten; 192.0.2.2 was seen 1.5 s ago
    limiter.take("192.0.2.3")
    assert "192.0.2.1" not in limiter.buckets and "192.0.2.2" in limiter.buckets


def test_bad_rate_limits_are_refused() -> None:
    with pytest.raises(ValueError, match=r"0 \(no limit\) or more"):
        RateLimits(socket_per_second=-1)
    with pytest.raises(ValueError, match="no IP address or network"):
        RateLimits(exempt="nope")


# ----- campfire serve ---------------------------------------------------------------------------


def test_serve_applies_its_lobby_rate(tmp_path: Path) -> None:
    """``campfire serve --lobby-rate 2 --rate-limit-exempt none`` through real uvicorn."""
    from .live_server import http

    server = LiveServer(
        f"sqlite:///{tmp_path / 'r.db'}",
        tmp_path,
        args=("--lobby-rate", "2", "--rate-limit-exempt", "none"),
    )
    try:
        body = {"game": "tracker", "players": 2}
        assert http("POST", f"{server.base}/api/tables", body)[0] == 201
        assert http("POST", f"{server.base}/api/tables", body)[0] == 201
        status, text = http("POST", f"{server.base}/api/tables", body)
        assert status == 429 and '"rate_limited"' in text
        assert http("GET", f"{server.base}/api/tables")[0] == 200
    finally:
        server.stop()


def test_a_refusal_that_says_when_to_retry_gets_the_retry_after_header() -> None:
    """``lobby.guarded`` sends a ``LobbyError``'s ``retry_after`` as ``Retry-After`` (rounded up).

    The accounts' rate limit and any other route's refusal share this one answer; a refusal
    without a wait has no such header.
    """
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from campfire.server.lobby import guarded
    from campfire.server.seating import LobbyError

    async def slow_down(request: Request) -> Response:
        raise LobbyError(429, "rate_limited", "too many", retry_after=2.2)

    async def refuse(request: Request) -> Response:
        raise LobbyError(400, "bad_request", "no")

    app = Starlette(routes=[Route("/slow", guarded(slow_down)), Route("/no", guarded(refuse))])
    with TestClient(app) as client:
        waited = client.get("/slow")
        assert waited.status_code == 429 and waited.headers["retry-after"] == "3"
        assert waited.json()["error"]["code"] == "rate_limited"
        refused = client.get("/no")
        assert refused.status_code == 400 and "retry-after" not in refused.headers
