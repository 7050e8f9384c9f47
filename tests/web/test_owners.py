"""Who played what, and who decided it, as a person sees it in the browser.

Every card on the table shows its owner's colour and mark, the same as on that player's panel
(here on a table whose hunting grounds collect the players' cards), and a move the clock or a
bot made for a person reads so in the log, never as the person's own ("You …").
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from tests.server.live_server import http

from .people import click_something, create_table, start, until

#: each card marked with an owner: its owner seat, its badge, its edge colour; each panel's too
_OWNERS = """() => {
  const css = (node) => getComputedStyle(node).getPropertyValue("--cf-seat").trim();
  const cards = [...document.querySelectorAll("#cf-board .cf-card.cf-owned")].map((card) => ({
    owner: card.dataset.owner,
    mark: card.querySelector(".cf-owner-badge").textContent,
    colour: css(card),
    zone: card.closest("[data-zone]").dataset.zone,
  }));
  const panels = Object.fromEntries(
    [...document.querySelectorAll("#cf-board .cf-player")].map((p) => [
      p.dataset.seat,
      { mark: p.querySelector(".cf-seat-badge").textContent, colour: css(p),
        name: p.querySelector(".cf-player-name").textContent },
    ]),
  );
  return { cards, panels };
}"""


def test_the_cards_on_the_table_show_who_played_them(server: Any, new_page: Any) -> None:
    ann = new_page()
    create_table(ann, server.base, "manitou", 3, ["easy", "easy"], name="Ann")
    start(ann)
    rng = random.Random(3)

    def two_owners() -> bool:
        seen = ann.evaluate(_OWNERS)
        if len({c["owner"] for c in seen["cards"]}) >= 2:
            return True
        click_something(ann, rng)
        return False

    until(ann, two_owners, 60)
    seen = ann.evaluate(_OWNERS)
    panels = seen["panels"]
    # every player has a colour and a mark of their own
    assert len({p["colour"] for p in panels.values()}) == len(panels) == 3
    assert len({p["mark"] for p in panels.values()}) == 3
    assert panels["0"]["mark"] == "A" and panels["0"]["name"] == "Ann"
    # each card played shows its owner's mark and colour, as on the owner's panel
    for card in seen["cards"]:
        assert card["mark"] == panels[card["owner"]]["mark"]
        assert card["colour"] == panels[card["owner"]]["colour"]
    assert len({c["owner"] for c in seen["cards"]}) >= 2
    assert ann.errors == []


@pytest.mark.parametrize(
    ("on_timeout", "said"),
    [("random", "The clock played for you: Ann "), ("bot", "Bot (for you) ")],
)
def test_the_log_says_who_decided_a_move_made_for_you(
    server: Any, new_page: Any, on_timeout: str, said: str
) -> None:
    seats = [{"kind": "reserved", "nickname": "Ann"}, {"kind": "bot", "level": "easy"}]
    clock = {"kind": "move", "seconds": 0.3, "on_timeout": on_timeout}
    body = {"game": "tracker", "players": 2, "seats": seats, "clock": clock}
    status, text = http("POST", f"{server.base}/api/tables", body)
    assert status == 201, text
    made = json.loads(text)
    table, token = made["table"]["id"], made["tokens"]["0"]
    ann = new_page()
    ann.goto(f"{server.base}/t/{table}#seat=0&token={token}")
    ann.locator("#cf-waiting").wait_for()
    status, text = http("POST", f"{server.base}/api/tables/{table}/start", {}, token=token)
    assert status == 200, text
    ann.locator("#cf-board .cf-table-view").wait_for()

    def lines() -> list[str]:
        return [str(x) for x in ann.locator("#cf-log li").all_inner_texts()]

    assert until(ann, lambda: any(line.startswith(said) for line in lines()), 60), lines()
    # the person made no move: a line of theirs ("You look at …", what only they saw) comes
    # only right after the line that says who decided the move
    log = lines()
    for before, line in itertools.pairwise(log):
        if line.startswith("You "):
            assert before.startswith(said), log
    assert ann.errors == []


_DRAWN = """async (display) => {
  const { renderTable } = await import("/static/js/render.js");
  const box = document.createElement("div");
  document.body.append(box);
  renderTable(box, display, {});
  const css = (node) => getComputedStyle(node).getPropertyValue("--cf-seat").trim();
  return {
    panels: [...box.querySelectorAll(".cf-player")].map((p) =>
      [p.querySelector(".cf-seat-badge").textContent, css(p)]),
    cards: [...box.querySelectorAll(".cf-card")].map((c) => [c.dataset.card,
      c.querySelector(".cf-owner-badge")?.textContent ?? null]),
  };
}"""


def test_every_player_has_a_colour_and_a_mark_of_their_own(server: Any, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{server.base}/")
    players = [
        {"seat": 0, "name": "Ann", "colour": "red", "symbol": None},
        {"seat": 1, "name": "adam", "colour": None, "symbol": None},
        {"seat": 2, "name": "Bob", "colour": None, "symbol": "♣"},
    ]
    hand = {"id": "hand:1", "label": "one", "short": "1", "owner": 0}
    played = [{"id": f"table:{s}", "label": "x", "short": "x", "owner": s} for s in (0, 1, 2)]
    display = {
        "game": "x", "seat": 0, "status": "", "prompt": "", "actions": [], "over": False,
        "players": [{**p, "score": "", "facts": [], "to_act": False, "you": p["seat"] == 0}
                    for p in players],
        "zones": [
            {"id": "hand", "label": "Hand", "kind": "row", "owner": 0, "cards": [hand]},
            {"id": "table", "label": "Table", "kind": "row", "owner": None, "cards": played},
        ],
    }  # fmt: skip
    drawn = page.evaluate(_DRAWN, display)
    marks = [m for m, _ in drawn["panels"]]
    fills = [f for _, f in drawn["panels"]]
    # two names with one initial get the seat number; a game's symbol is the mark where given
    assert marks == ["A1", "A2", "♣"]
    # the game's red, in a shade dark enough for white ink; three different colours
    assert fills[0] == "#b3261e" and len(set(fills)) == 3
    # a card in its owner's own zone wears no badge; cards played to the table do
    assert dict(drawn["cards"]) == {
        "hand:1": None,
        "table:0": "A1",
        "table:1": "A2",
        "table:2": "♣",
    }
    assert page.errors == []
