"""People at the browser: create, join and start tables, and play by clicking what they see.

Everything goes through what a person would use: labelled form fields, and buttons found by
their role and accessible name (the lobby's, the waiting room's, the table's cards, places and
buttons). A random but seeded player picks among the buttons the table offers; a wait for the
page gives up after :data:`PATIENCE` seconds (a bound for a loaded machine, never an assertion
about speed).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Callable
from typing import Any

#: What a page shows a person at the end of a game.
RESULT = "#cf-board .cf-result"
#: how long a wait for a page gives up after, in seconds: :func:`until`'s and Playwright's
#: (every page's default timeout, tests/web/conftest.py)
PATIENCE = 30.0


def until(page: Any, ready: Callable[[], Any], seconds: float = PATIENCE) -> Any:
    """Poll ``ready()`` every 30 ms while ``page`` runs; its first true value, or ``None``.

    The caller asserts what it waited for, so a page that never gets there fails with the
    caller's message.
    """
    deadline = time.monotonic() + seconds
    while not (value := ready()):
        if time.monotonic() > deadline:
            return None
        page.wait_for_timeout(30)
    return value


def must(page: Any, ready: Callable[[], Any], what: str) -> Any:
    """:func:`until` ``ready()`` is true; its value, or a failure naming ``what`` was awaited."""
    value = until(page, ready)
    if not value:
        raise AssertionError(f"waited in vain for {what}")
    return value


def wait_for_js(page: Any, expression: str, arg: Any = None) -> Any:
    """Wait until the JavaScript ``expression`` (or function of ``arg``) is true in ``page``.

    Not ``page.wait_for_function``: its predicate is compiled inside the page, which the
    server's Content-Security-Policy forbids (``benchmarks/web_browser.py``, ``wait_for_js``).
    A page that navigates meanwhile (a reload) is asked again once the new one is there; an
    expression that reads the document should allow for the moment between two documents, when
    ``document.documentElement`` is ``null`` (write ``document.documentElement?.lang``).
    """

    def ready() -> Any:
        try:
            return page.evaluate(expression, arg)
        except Exception as exc:  # the page navigating (a reload): ask the next one
            if "context was destroyed" not in str(exc):
                raise
            return None

    value = until(page, ready)
    assert value, f"{expression} never became true"
    return value


def create_table(
    page: Any,
    base: str,
    game: str,
    players: int,
    seats: list[str],
    *,
    name: str = "Ann",
    realtime: bool | None = None,
    friends: tuple[str, ...] | list[str] = (),
    hints: bool = False,
) -> int:
    """Create a table in the lobby (seat 1 is the creator); return its id.

    ``seats`` are the other seats' kinds as the lobby offers them: ``open``, ``friend``,
    ``easy``, ``medium``, ``hard``; ``friends`` names the friends' seats in order.
    """
    page.goto(f"{base}/")
    page.get_by_label("Game").select_option(game)
    page.get_by_label("Players").select_option(str(players))
    page.get_by_label("Your name").fill(name)
    names = iter(friends)
    for number, kind in enumerate(seats, start=2):
        page.get_by_label(f"Seat {number}", exact=True).select_option(kind)
        if kind == "friend":
            page.get_by_label(f"Name of the friend in seat {number}").fill(next(names))
    if realtime is not None:
        box = page.get_by_label(re.compile("^Real time"))
        box.set_checked(realtime)
    if hints:
        page.get_by_label(re.compile("^Hints")).check()
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def sign_up(page: Any, base: str, name: str) -> None:
    """Sign up as ``name`` on the account page, by typing and clicking; wait until signed in."""
    page.goto(f"{base}/account")
    form = page.locator("#cf-signup")
    form.get_by_label("User name").fill(name)
    form.get_by_label("Password", exact=True).fill("a good password")
    form.get_by_role("button", name="Sign up").click()
    must(page, page.get_by_role("heading", name=f"Signed in as {name}").is_visible, "signed up")


def join_table(page: Any, base: str, table: int, name: str) -> None:
    """Open the invitation link, type a name and take the first open seat."""
    page.goto(f"{base}/t/{table}")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take this seat").first.click()
    page.get_by_role("button", name="Leave the seat").wait_for()


def start(page: Any) -> None:
    """Press start once every seat is taken."""
    button = page.get_by_role("button", name="Start the game")
    until(page, button.is_enabled)
    button.click()
    page.locator("#cf-board .cf-table-view").wait_for()


def seq_of(page: Any) -> int:
    """The sequence number the page shows (``data-seq`` of the board)."""
    return int(page.locator("body").get_attribute("data-seq") or "0")


def over(page: Any) -> bool:
    """Whether the page shows the end-of-game summary."""
    return bool(page.locator(RESULT).count())


def _click(locator: Any) -> bool:
    """Click, unless the table changed under the pointer (then the caller looks again)."""
    from playwright.sync_api import Error

    try:
        locator.click(timeout=3000)
    except Error:
        return False
    return True


#: Finds what a person could click now: the open menu's choices, else (a card picked up) the
#: places it may go, else every card, place and button of the table but "Cancel this step";
#: picks one (``pick`` and ``liking``: random numbers from the test's seeded generator, ``prefer``
#: a pattern of names liked four times in five), scrolls it into view and says where it is and
#: whether a pointer there would reach it (nothing covers it).
_PICK = """([liking, pick, prefer]) => {
  const over = Boolean(document.querySelector("#cf-board .cf-result"));
  if (over) return {over, n: 0};
  let buttons = [...document.querySelectorAll("#cf-board .cf-menu button")];
  let general = false;
  if (!buttons.length && document.querySelector("#cf-board .cf-selected")) {
    buttons = [...document.querySelectorAll("#cf-board button.cf-hint")];
  }
  if (!buttons.length) {
    general = true;
    const css = "#cf-board button:not(.cf-cancel), #cf-realtime button";
    buttons = [...document.querySelectorAll(css)].filter((b) => !b.closest("[hidden]"));
  }
  if (!buttons.length) return {over, n: 0};
  let choices = buttons;
  if (general && prefer !== null && liking < 0.8) {
    const re = new RegExp(prefer);
    const liked = buttons.filter((b) => re.test(b.getAttribute("aria-label") || b.textContent));
    if (liked.length) choices = liked;
  }
  const chosen = choices[Math.floor(pick * choices.length)];
  chosen.scrollIntoView({ block: "center", inline: "center" });
  const box = chosen.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const hit = document.elementFromPoint(x, y);
  const reached = Boolean(hit) && chosen.contains(hit) && !chosen.disabled;
  return {over, n: buttons.length, x, y, reached};
}"""


def click_something(page: Any, rng: random.Random, prefer: str | None = None) -> bool:
    """Click one thing the table offers now, as a person would; whether there was one.

    ``prefer`` (a pattern of accessible names) is what this person chooses four times in five
    when the table offers it (a player who likes to capture, say); otherwise any button. The
    click is the mouse's, at the middle of the button scrolled into view, and only when nothing
    covers it there (one round trip to find it, one to click: a game has hundreds of clicks).
    """
    return _turn(page, rng, prefer) == "clicked"


def _turn(page: Any, rng: random.Random, prefer: str | None) -> str:
    """One look and maybe one click: ``over`` (the summary shows), ``clicked`` or ``idle``."""
    look = page.evaluate(_PICK, [rng.random(), rng.random(), prefer])
    if look["over"]:
        return "over"
    if not look["n"] or not look["reached"]:
        return "idle"
    page.mouse.click(look["x"], look["y"])
    return "clicked"


def play_to_the_end(
    pages: list[Any],
    rng: random.Random,
    limit: int = 3000,
    look: Callable[[int], None] | None = None,
    prefer: str | None = None,
) -> int:
    """Let every page's person play (randomly, by clicking) until the game is over.

    ``look(page_number)`` is called after every few clicks (to keep what the page shows).
    """
    clicks = 0
    for _ in range(limit):
        moved = False
        finished = 0
        for page in pages:
            done = _turn(page, rng, prefer)
            if done == "over":
                finished += 1
            elif done == "clicked":
                clicks += 1
                moved = True
                if look is not None and clicks % 4 == 0:
                    look(pages.index(page))
        if finished == len(pages):
            return clicks
        if not moved:
            pages[0].wait_for_timeout(30)
    raise AssertionError(f"the game did not end after {limit} rounds ({clicks} clicks)")


def record(base: str, table: int) -> dict[str, Any]:
    """The finished game's record (``GET /api/tables/{id}/record``)."""
    from tests.server.live_server import http

    status, text = http("GET", f"{base}/api/tables/{table}/record")
    assert status == 200, text
    data: dict[str, Any] = json.loads(text)
    return data


#: the frames of a table's game, as against its chat, presence or rematch frames
_GAME_FRAMES = ("snapshot", "delta")


def play_by_socket(ws_base: str, table: int, pages: list[Any], rng: random.Random) -> int:
    """Play the game at ``table`` to its end over its socket, with the seats the pages hold.

    For the tests of what comes after a game (a rematch): a whole game played by clicking is
    :mod:`tests.web.test_play`'s (Apache's real-time one included), and takes a loaded machine
    40 s more. Each page's seat token is read from its storage (where the lobby keeps it); a
    seeded random player answers for whichever seat may act; the pages follow the game on their
    own sockets, as a second tab would. Returns the number of actions played.
    """
    from websockets.sync.client import connect

    from tests.server.helpers import check_frame

    def read(ws: Any) -> dict[str, Any]:
        while True:
            frame = check_frame(json.loads(ws.recv(timeout=PATIENCE)))
            if frame["type"] in _GAME_FRAMES:
                return frame

    seat_of = "(t) => JSON.parse(localStorage.getItem(`campfire.seat.${t}`)).token"
    tokens = [page.evaluate(seat_of, table) for page in pages]
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(f"{ws_base}/ws/tables/{table}?token={token}"))
            for token in tokens
        ]
        last = [read(ws) for ws in sockets]
        for played in range(5000):  # bounded: a game is hundreds of actions
            top = max(frame["seq"] for frame in last)
            for i, ws in enumerate(sockets):  # every seat at the same step
                while last[i]["seq"] < top:
                    last[i] = read(ws)
            if last[0]["outcome"] is not None:
                return played
            mover = next((i for i, frame in enumerate(last) if frame["legal"]), None)
            if mover is None:  # nobody may act until a timer of the table's: read on
                last[0] = read(sockets[0])
                continue
            action = rng.choice(last[mover]["legal"])["notation"]
            sockets[mover].send(json.dumps({"type": "action", "seq": top, "action": action}))
            last[mover] = read(sockets[mover])  # its step's delta
    raise AssertionError("the game did not end after 5000 actions")
