"""The lobby in plain words, tables to join first (issue 28, points 6 and 7).

A person reads every option's name and every choice in words of their language, never a code
word (``per_card``, ``-1``, seats counted from 0); a start player is "Random" or "Player 1" …
up to the table's player count; the tables to join come before the form that makes a new one,
on a phone and on a desktop. A game that declares no words for its options (the plugin Sparks)
shows them readably.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.server.live_server import http

from .people import until, wait_for_js

#: a code word as the options' values were written: an underscore, or a lone number from -1
CODE = re.compile(r"_|^-1$")


def _lobby(page: Any, base: str, language: str = "en") -> None:
    page.goto(f"{base}/")
    if language != "en":
        page.get_by_label("Language").select_option(language)
        wait_for_js(page, f"document.documentElement?.lang === '{language}'")
    page.locator("#cf-game option").first.wait_for(state="attached")
    page.locator("#cf-options .cf-option").first.wait_for()


def _shown_options(page: Any) -> list[tuple[str, list[str]]]:
    """Each option's label as a person reads it, with the choices its list offers."""
    found: list[list[Any]] = page.evaluate(
        """() => [...document.querySelectorAll("#cf-options .cf-option")].map((row) => {
          const input = row.querySelector("[data-option]");
          return [row.querySelector("label").innerText,
                  input.tagName === "SELECT" ? [...input.options].map((o) => o.text) : []];
        })"""
    )
    return [(label, choices) for label, choices in found]


def test_a_start_player_is_random_or_a_player_of_this_table(server: Any, new_page: Any) -> None:
    ann = new_page()
    _lobby(ann, server.base)
    ann.get_by_label("Game").select_option("dudab")
    start = ann.get_by_label("Start player")
    assert start.locator("option").all_inner_texts() == ["Random", "Player 1", "Player 2"]
    assert start.locator("option:checked").inner_text() == "Random"
    ann.get_by_label("Players").select_option("4")
    assert start.locator("option").all_inner_texts() == [
        "Random",
        *(f"Player {n}" for n in range(1, 5)),
    ]
    start.select_option(label="Player 4")
    ann.get_by_label("Players").select_option("3")  # player 4 is gone: back to the default
    assert start.locator("option").all_inner_texts()[-1] == "Player 3"
    assert start.locator("option:checked").inner_text() == "Random"
    start.select_option(label="Player 2")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_label("Seat 2", exact=True).select_option("easy")
    ann.get_by_label("Seat 3", exact=True).select_option("open")
    ann.get_by_role("button", name="Create table").click()
    ann.wait_for_url(re.compile(r"/t/\d+$"))
    table = int(ann.url.rsplit("/", 1)[1])
    status, text = http("GET", f"{server.base}/api/tables/{table}")
    assert status == 200 and json.loads(text)["table"]["options"] == {"start_player": 1}
    # the lobby's list says the table's options in words
    carl = new_page(390, 844)
    carl.goto(f"{server.base}/")
    item = carl.locator(f'[data-table="{table}"]')
    item.wait_for()
    assert "Options: Start player: Player 2" in item.inner_text()
    assert ann.errors == [] and carl.errors == []


@pytest.mark.parametrize("language", ["en", "hu", "cs"])
def test_every_option_of_every_game_reads_in_words(
    server: Any, new_page: Any, language: str
) -> None:
    page = new_page(390, 844)
    _lobby(page, server.base, language)
    seen: dict[str, list[tuple[str, list[str]]]] = {}
    games = page.locator("#cf-game option").evaluate_all("(os) => os.map((o) => o.value)")
    for game in games:
        page.locator("#cf-game").select_option(game)
        assert until(page, lambda: page.locator("#cf-options .cf-option").count()), game
        shown = _shown_options(page)
        for label, choices in shown:
            assert label and not CODE.search(label), (game, label)
            assert all(c and not CODE.search(c) for c in choices), (game, label, choices)
        # the longest words fit a phone: nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), game
        text = page.locator("#cf-create").inner_text().lower()
        assert "placeholder" not in text and "unverified" not in text
        seen[game] = shown
    if language == "en":
        assert ("Hero chart", ["Standard", "Manitou 1997 (the Chief beats the Spy)",
                               "A plain ranking"]) in seen["manitou"]  # fmt: skip
        assert ("Hand size", ["4", "5", "6"]) in seen["sparks"]  # no labels: readable
        assert ("Trumps", []) in seen["sparks"]
    elif language == "hu":
        assert ("Kezdő játékos", ["Véletlenszerű", "1. játékos", "2. játékos"]) in seen["dudab"]
        assert ("A vadászok rangsorolása", ["Kártyánként", "Minden játékos legjobb vadásza"]) in (
            seen["manitou"]
        )
    else:
        assert ("Začínající hráč", ["Náhodně", "Hráč 1", "Hráč 2"]) in seen["dudab"]
        assert ("Pořadí nároků", ["Podle reakční doby", "V pořadí, jak přicházejí"]) in (
            seen["apache"]
        )
    assert page.errors == []


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_tables_to_join_come_before_the_new_table_form(
    server: Any, new_page: Any, size: tuple[int, int]
) -> None:
    status, text = http(
        "POST",
        f"{server.base}/api/tables",
        {"game": "tracker", "players": 2, "seats": [{"kind": "open"}, {"kind": "open"}]},
    )
    assert status == 201, text
    table = json.loads(text)["table"]["id"]
    page = new_page(*size)
    page.goto(f"{server.base}/")
    join = page.locator(f'[data-table="{table}"]').get_by_role("link", name=re.compile("^Join"))
    join.wait_for()
    tables = page.get_by_role("heading", name="Tables").bounding_box()
    form = page.get_by_role("heading", name="New table").bounding_box()
    assert tables is not None and form is not None
    if size[0] < 900:  # a phone: above the form, and the join button without scrolling
        assert tables["y"] < form["y"]
        box = join.bounding_box()
        assert box is not None and box["y"] + box["height"] <= size[1]
        page.get_by_role("link", name="Create a table").click()
        until(page, lambda: page.evaluate("window.scrollY") > 0)
        assert page.get_by_label("Game").is_visible()
    else:  # a desktop: beside it, on the left, both in view
        assert tables["x"] < form["x"] and abs(tables["y"] - form["y"]) < 5
        assert page.get_by_role("link", name="Create a table").is_hidden()
    # in reading order (a screen reader, the tab key) the list comes first too
    order = page.evaluate("""() => [...document.querySelectorAll("main h2")].map((h) => h.id)""")
    assert order == ["cf-tables-title", "cf-new-title"]
    assert page.errors == []


def test_the_table_page_lists_its_options_in_words(server: Any, new_page: Any) -> None:
    status, text = http(
        "POST",
        f"{server.base}/api/tables",
        {
            "game": "dudab",
            "players": 3,
            "options": {"start_player": 1},
            "seats": [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "level": "easy"}],
        },
    )
    assert status == 201, text
    table = json.loads(text)["table"]["id"]
    page = new_page(390, 844)
    page.goto(f"{server.base}/t/{table}")  # the waiting room, as a friend sent the link sees it
    lines = page.locator("#cf-options li")
    until(page, lambda: lines.count())
    shown = lines.all_inner_texts()
    assert "Start player: Player 2" in shown, shown  # seat 1, counted from 1
    assert not any("start_player" in line or CODE.search(line.split(": ")[-1]) for line in shown)
    assert page.errors == []
