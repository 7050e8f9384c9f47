"""Bad links, opened as a person would: a page that says what was wrong, never raw JSON.

A mistyped table link (``/t/abc``), one too long to be a table's (``/t/99999999999999``), a
table that does not exist, a game with no rules, a replay link that names no finished game:
each shows a page in the reader's language (``?lang``, else the language chosen in the
switcher, else the browser's) with a way back to the lobby. A seat link whose token the table
refuses (wrong, cut short, another table's, or a seat given up since) leaves the person
watching, and the table page says so instead of seating them as a spectator without a word.
"""

from __future__ import annotations

import json
from typing import Any

from campfire.web.strings import strings
from tests.server.live_server import LiveServer, http

from .people import create_table, wait_for_js

EN, HU, CS = strings("en"), strings("hu"), strings("cs")


def _heading(page: Any) -> str:
    text: str = page.locator("#cf-missing-title").inner_text()
    return text


def _ready(page: Any, lang: str) -> None:
    """Wait until the page's script has put its texts in ``lang`` (and the switcher)."""
    wait_for_js(
        page,
        "([lang]) => document.body?.dataset.ready === '1'"
        " && document.documentElement.lang === lang",
        [lang],
    )


def test_a_mistyped_table_link_says_so_and_leads_to_the_lobby(
    server: LiveServer, new_page: Any
) -> None:
    page = new_page()
    for raw in ("abc", "99999999999999", "987654"):
        answer = page.goto(f"{server.base}/t/{raw}")
        assert answer.status == 404 and answer.headers["content-type"].startswith("text/html")
        _ready(page, "en")
        assert _heading(page) == EN["web.missing.table"].replace("{table}", raw)
        assert EN["web.missing.table.help"] in page.locator("main").inner_text()
        assert "{" not in page.locator("body").inner_text()  # no raw JSON, no placeholder
        assert page.title() == f"{_heading(page)} · Campfire"
    page.get_by_role("link", name="Back to the lobby").click()
    page.wait_for_url(f"{server.base}/")
    page.get_by_role("button", name="Create table").wait_for()
    assert page.errors == []


def test_the_page_speaks_the_readers_language(
    server: LiveServer, new_page: Any, browser: Any
) -> None:
    page = new_page(390, 844)
    # the language chosen in the switcher on another page holds here too
    page.goto(f"{server.base}/")
    page.get_by_label("Language").select_option("hu")
    wait_for_js(page, "localStorage.getItem('campfire.lang') === 'hu'")
    page.goto(f"{server.base}/t/abc")
    _ready(page, "hu")
    assert _heading(page) == HU["web.missing.table"].replace("{table}", "abc")
    assert page.get_by_role("link", name=HU["web.missing.lobby"]).is_visible()
    # ?lang= wins over the saved choice
    page.goto(f"{server.base}/t/abc?lang=cs")
    _ready(page, "cs")
    assert _heading(page) == CS["web.missing.table"].replace("{table}", "abc")
    # the switcher on the page changes it at once, and remembers it
    page.get_by_label(CS["web.lang.label"]).select_option("en")
    _ready(page, "en")
    assert _heading(page) == EN["web.missing.table"].replace("{table}", "abc")
    assert page.evaluate("localStorage.getItem('campfire.lang')") == "en"
    assert "lang=" not in page.url
    assert page.errors == []
    # a browser in Czech, nothing chosen: Czech, from the server's first answer on
    context = browser.new_context(locale="cs-CZ", viewport={"width": 1280, "height": 800})
    try:
        czech = context.new_page()
        answer = czech.goto(f"{server.base}/rules/nogame")
        assert answer.status == 404 and answer.headers["content-language"] == "cs"
        assert czech.locator("#cf-missing-title").inner_text() == CS["web.missing.rules"].replace(
            "{name}", "nogame"
        )
        _ready(czech, "cs")
    finally:
        context.close()


def test_unknown_rules_offer_the_rules_there_are(server: LiveServer, new_page: Any) -> None:
    page = new_page()
    answer = page.goto(f"{server.base}/rules/chess")
    assert answer.status == 404
    _ready(page, "en")
    assert EN["web.missing.rules.help"] in page.locator("main").inner_text()
    links = page.locator(".cf-missing-list a")
    assert links.count() >= 4
    first = links.first
    name = first.inner_text()
    first.click()
    page.wait_for_url("**/rules/*?lang=en")
    assert page.title() == name and page.locator("main h1").count() == 1


def test_replay_links_that_name_no_game(server: LiveServer, new_page: Any) -> None:
    status, text = http(
        "POST",
        f"{server.base}/api/tables",
        {"game": "tracker", "players": 2, "seats": [{"kind": "open"}, {"kind": "open"}]},
    )
    assert status == 201, text
    table = json.loads(text)["table"]["id"]
    page = new_page()
    cases = [
        (
            f"/replay?table={table}&game=1",
            404,
            EN["web.missing.game"],
            {"table": table, "number": 1},
        ),
        ("/replay?table=123456", 404, EN["web.missing.table"], {"table": 123456}),
        (f"/replay?table={table}&seat=two", 400, EN["web.missing.replay"], {}),
    ]
    for path, status, template, params in cases:
        answer = page.goto(f"{server.base}{path}")
        assert answer.status == status, path
        _ready(page, "en")
        for key, value in params.items():
            template = template.replace("{" + key + "}", str(value))
        assert _heading(page) == template
    page.get_by_role("link", name=EN["web.missing.replays"]).click()
    page.wait_for_url(f"{server.base}/replay")
    page.locator("#cf-replay-game").wait_for()
    assert page.errors == []


def _refused(page: Any, message_id: str) -> None:
    """The table page says the seat link was refused, and that the person is watching."""
    alert = page.locator("#cf-bad-seat")
    alert.wait_for()
    assert alert.get_attribute("role") == "alert"
    assert EN[message_id] in alert.inner_text()
    assert alert.get_by_role("link", name="Back to the lobby").get_attribute("href") == "/"
    assert page.locator("#cf-spectator").is_hidden()  # said once, with the reason
    page.get_by_text("Seat 2: Bob").wait_for()  # the seat stays the friend's
    assert page.get_by_role("button", name="Leave the seat").count() == 0
    assert (
        page.evaluate("Object.keys(localStorage).some((k) => k.startsWith('campfire.seat.'))")
        is False
    )


def test_a_refused_seat_link_says_you_are_watching(server: LiveServer, new_page: Any) -> None:
    ann = new_page()
    table = create_table(ann, server.base, "tracker", 2, ["friend"], name="Ann", friends=["Bob"])
    link = ann.get_by_label("For Bob (seat 2)").input_value()
    good = link.split("token=", 1)[1]
    # another table's seat token
    status, text = http(
        "POST",
        f"{server.base}/api/tables",
        {
            "game": "tracker",
            "players": 2,
            "seats": [{"kind": "reserved", "nickname": "Cy"}, {"kind": "open"}],
        },
    )
    assert status == 201, text
    foreign = json.loads(text)["tokens"]["0"]
    for token in (good[:-3] + "xyz", foreign, ""):  # mistyped, another table's, cut short
        bob = new_page(390, 844)
        bob.goto(f"{server.base}/t/{table}#seat=1&token={token}")
        _refused(bob, "web.table.bad_invite")
        assert bob.errors == []
    # a seat this browser kept that the table no longer knows
    carl = new_page()
    carl.goto(f"{server.base}/")
    carl.evaluate(
        "([table]) => localStorage.setItem(`campfire.seat.${table}`, "
        "JSON.stringify({seat: 1, token: 'given-up'}))",
        [table],
    )
    carl.goto(f"{server.base}/t/{table}")
    _refused(carl, "web.table.bad_seat")
    # the right link still seats the friend, and says nothing of the kind
    bob = new_page()
    bob.goto(link)
    bob.get_by_role("button", name="Leave the seat").wait_for()
    assert bob.locator("#cf-bad-seat").is_hidden()
    assert ann.errors == [] and carl.errors == []


def test_taking_a_free_seat_after_a_refused_link(server: LiveServer, new_page: Any) -> None:
    seats = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "open"}]
    status, text = http(
        "POST", f"{server.base}/api/tables", {"game": "tracker", "players": 2, "seats": seats}
    )
    assert status == 201, text
    table = json.loads(text)["table"]["id"]
    dan = new_page(390, 844)
    dan.goto(f"{server.base}/t/{table}#seat=1&token=nothing")
    dan.locator("#cf-bad-seat").wait_for()
    dan.get_by_label("Your name").fill("Dan")
    dan.get_by_role("button", name="Take this seat").click()
    dan.get_by_role("button", name="Leave the seat").wait_for()
    assert dan.locator("#cf-bad-seat").is_hidden()
    dan.get_by_role("button", name="Leave the seat").click()  # watching again, by choice
    dan.locator("#cf-spectator").wait_for()
    assert dan.locator("#cf-bad-seat").is_hidden()
    assert dan.errors == []
