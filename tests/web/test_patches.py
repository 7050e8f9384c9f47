"""The browser client's display patches (``protocol.js``): asked for, applied, drawn from.

``applyPatch`` runs in Chromium on the patches the server's code makes for random games of
every game (each seat and the spectator, every step) and must rebuild each display model
exactly, leaving the model it started from untouched; a patch that does not fit throws. A table
page asks for patches (``patch=1``) and draws a game of bots to its end from them.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import campfire
from campfire.core import Match
from campfire.core.present import Display
from campfire.server.patches import display_patch, to_json
from campfire.server.protocol import seat_display
from tests.server.live_server import LiveServer, http

from .people import until

GAMES = ("apache", "dudab", "manitou", "tracker")
#: steps of each game checked (the models are large: enough to see every kind of change)
STEPS = 40

_APPLY = """async ([start, patches]) => {
  const { applyPatch } = await import("/static/js/protocol.js");
  let model = start;
  const out = [];
  for (const patch of patches) {
    const before = JSON.stringify(model);
    const next = applyPatch(model, patch);
    if (JSON.stringify(model) !== before) throw new Error("the model held was changed");
    out.push(next);
    model = next;
  }
  return out;
}"""


@pytest.fixture(scope="module")
def base(server: LiveServer) -> str:
    """The module's live server (tests/web/conftest.py)."""
    return server.base


@pytest.fixture(scope="module")
def page(browser: Any, base: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 800, "height": 600}, locale="en-US")
    page = context.new_page()
    page.goto(f"{base}/static/index.html")
    yield page
    context.close()


def _models(name: str, seat: int | None) -> list[Display]:
    """The display models of ``seat`` over the first steps of a seeded random game."""
    game = campfire.get_game(name)
    rng = random.Random(f"{name}/{seat}")
    match = Match(game, 3, {}, seed=rng.getrandbits(32))
    names = ["Ann", "Bob", "Cid"]
    out = []
    for _ in range(STEPS):
        state = match.state
        acting = seat is not None and not state.is_terminal() and seat in state.seats_to_act()
        legal = state.legal_actions(seat) if acting else []
        out.append(seat_display(game, state.view(seat), legal, names))
        if state.is_terminal():
            break
        mover = rng.choice(list(state.seats_to_act()))
        match.play(mover, str(rng.choice(state.legal_actions(mover))))
    return out


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seat", [1, None])
def test_apply_patch_in_the_browser_rebuilds_every_model(
    page: Any, name: str, seat: int | None
) -> None:
    models = _models(name, seat)
    patches = [to_json(display_patch(a, b)) for a, b in itertools.pairwise(models)]
    rebuilt = page.evaluate(_APPLY, [to_json(models[0]), patches])
    assert rebuilt == [to_json(m) for m in models[1:]]


def test_a_patch_that_does_not_fit_throws_in_the_browser(page: Any) -> None:
    thrown = page.evaluate(
        """async () => {
          const { applyPatch } = await import("/static/js/protocol.js");
          const tries = [[[["nope", 0], 1]], [[["zones", 9, "id"], 1]], [[["prompt", "x"], 1]]];
          return tries.map((patch) => {
            try { applyPatch({ prompt: "Go.", zones: [] }, patch); return false; }
            catch (_) { return true; }
          });
        }"""
    )
    assert thrown == [True, True, True]


def test_a_table_page_asks_for_patches_and_draws_a_game_from_them(browser: Any, base: str) -> None:
    seats = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
    status, text = http(
        "POST", f"{base}/api/tables", {"game": "dudab", "players": 2, "seats": seats}
    )
    assert status == 201, text
    table = json.loads(text)["table"]["id"]
    context = browser.new_context(viewport={"width": 1000, "height": 700}, locale="en-US")
    try:
        watcher = context.new_page()
        errors: list[str] = []
        watcher.on("pageerror", lambda exc: errors.append(str(exc)))
        urls: list[str] = []
        frames: list[dict[str, Any]] = []

        def socket(ws: Any) -> None:
            urls.append(ws.url)
            ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

        watcher.on("websocket", socket)
        watcher.goto(f"{base}/t/{table}")
        # connected: the snapshot of the table waiting to start
        until(watcher, lambda: any(f.get("type") == "snapshot" for f in frames))
        assert http("POST", f"{base}/api/tables/{table}/start", {})[0] == 200
        watcher.locator("#cf-board .cf-table-view").wait_for()

        def over() -> bool:  # the bots played the game out
            last = [f for f in frames if f.get("type") in ("snapshot", "delta")]
            return bool(last) and last[-1]["outcome"] is not None

        until(watcher, over, 60)
        deltas = [f for f in frames if f.get("type") == "delta"]
        assert deltas and deltas[-1]["outcome"] is not None
        assert all("patch" in f and "display" not in f for f in deltas)
        assert urls and all("patch=1" in u for u in urls)
        seq = str(deltas[-1]["seq"])
        until(watcher, lambda: watcher.evaluate("() => document.body.dataset.seq") == seq)
        assert watcher.evaluate("() => document.body.dataset.seq") == seq
        assert watcher.locator("#cf-board .cf-table-view").count() == 1
        assert not errors
    finally:
        context.close()
