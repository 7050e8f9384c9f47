"""The client's cards, banner and counted texts, checked in the browser on real display models.

Every face-up card a game's presenter shows during a played game (random but seeded moves,
every seat's display) is drawn by ``cards.js`` with the pictogram its presenter names (the
card's ``icon``: cards.js reads no code and knows no game) and an accessible name; a card
revealed to one seat (a step display's reveal) is drawn the same way; the banner does not say
"Your turn" or "Waiting for …" twice; a counted text takes the plural form of the page's
language (``Intl.PluralRules``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import campfire
from campfire.core import visible_events
from campfire.core.present import Display
from campfire.server.protocol import seat_display
from campfire.web.strings import STRINGS, plural_ids, strings
from tests.server.live_server import LiveServer

from .people import wait_for_js

GAMES = ("apache", "dudab", "manitou", "tracker")


@pytest.fixture(scope="module")
def base(server: LiveServer) -> str:
    """The module's live server (tests/web/conftest.py)."""
    return server.base


@pytest.fixture(scope="module")
def page(browser: Any, base: str) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 800, "height": 600}, locale="en-US")
    page = context.new_page()
    page.goto(f"{base}/")
    wait_for_js(page, "(document.documentElement?.lang ?? '') !== ''")
    yield page
    context.close()


def _faces(game_name: str, steps: int = 400, seed: int = 5) -> list[dict[str, Any]]:
    """The distinct face-up cards every seat's display showed in a seeded random game."""
    game = campfire.get_game(game_name)
    players = max(2, game.min_players)
    state = game.new_game(players, game.options(), seed=seed)
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    faces: dict[str, dict[str, Any]] = {}
    for _ in range(steps):
        for seat in range(players):
            legal = state.legal_actions(seat) if seat in state.seats_to_act() else []
            display: Display = seat_display(game, state.view(seat), legal, names)
            for zone in display.to_json()["zones"]:
                for card in zone["cards"]:
                    if card["face_up"] and not card["empty"] and card["short"]:
                        faces.setdefault(card["short"], card)
        if state.is_terminal():
            break
        seat = state.seats_to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return list(faces.values())


_DRAW = """async (cards) => {
  const { cardSvg, cardName } = await import("/static/js/cards.js");
  return cards.map((card) => {
    const box = document.createElement("div");
    box.innerHTML = cardSvg(card);
    const art = box.querySelector("svg .cf-art");
    const big = box.querySelector("svg .cf-value");
    return { short: card.short, art: art ? art.dataset.art : null, icon: card.icon,
             rank: card.rank, big: big ? big.textContent : null,
             shapes: art ? art.querySelectorAll("path, circle, ellipse, rect").length : 0,
             name: cardName(card), label: card.label };
  });
}"""


@pytest.mark.parametrize("game", GAMES)
def test_every_face_up_card_of_a_game_has_a_pictogram_and_a_name(page: Any, game: str) -> None:
    cards = _faces(game)
    assert len(cards) >= 3, cards
    drawn = page.evaluate(_DRAW, cards)
    for card in drawn:
        assert card["art"], (game, card["short"])  # a pictogram, not the code alone
        assert card["art"] == card["icon"] and card["big"] == card["rank"], card
        assert card["shapes"] >= 2, card
        assert card["label"] and card["name"].startswith(card["label"]), card


def _revealed(game_name: str, steps: int = 200, seed: int = 3) -> list[dict[str, Any]]:
    """The cards the steps of a seeded random game revealed to one seat alone (JSON)."""
    game = campfire.get_game(game_name)
    players = max(2, game.min_players)
    state = game.new_game(players, game.options(), seed=seed)
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for _ in range(steps):
        if state.is_terminal():
            break
        seat = state.seats_to_act()[0]
        events = state.apply(seat, rng.choice(state.legal_actions(seat)))
        shown = game.presenter().step_display(visible_events(events, seat), seat)
        out.extend(json.loads(json.dumps(r.to_json()))["card"] for r in shown.reveals)
    return out


def test_a_card_revealed_to_one_seat_is_drawn_with_its_pictogram(page: Any) -> None:
    cards = _revealed("tracker")
    assert cards and all(c["face_up"] and c["icon"] for c in cards)
    drawn = page.evaluate(_DRAW, cards)
    assert {d["art"] for d in drawn} <= {"scout", "tracks"}
    assert all(d["art"] == d["icon"] for d in drawn)


_TEXTS = """async (card) => { const { cardSvg } = await import("/static/js/cards.js");
  const box = document.createElement("div"); box.innerHTML = cardSvg(card);
  return [...box.querySelectorAll("text")].map((t) => [t.textContent, t.getAttribute("class"),
    Number(t.getAttribute("font-size")), t.getAttribute("fill")]); }"""


def test_a_card_with_a_rank_but_no_pictogram_of_ours_is_a_number_card(page: Any) -> None:
    card = {"id": "x", "label": "a new card", "short": "Q7", "face_up": True, "empty": False,
            "colour": "red", "symbol": "R", "marks": [],
            "icon": "no-such-icon", "rank": "9"}  # fmt: skip
    drawn = page.evaluate(_DRAW, [card])
    assert drawn[0]["art"] is None and drawn[0]["name"] == "a new card"
    texts = page.evaluate(_TEXTS, card)
    big = [t for t in texts if "cf-number" in (t[1] or "")]
    # the rank big in the middle, in the ink of its colour (white on red); not the code
    assert [t[0] for t in big] == ["9"] and big[0][2] >= 30 and big[0][3] == "#fff"
    assert "Q7" not in [t[0] for t in texts]
    assert [t[0] for t in texts].count("R") == 2  # the colour's letter in two corners


def test_a_card_with_neither_pictogram_nor_rank_still_draws_its_code(page: Any) -> None:
    card = {"id": "x", "label": "a new card", "short": "Q7", "face_up": True, "empty": False,
            "colour": "red", "symbol": "R", "marks": [], "icon": None, "rank": None}  # fmt: skip
    texts = [t[0] for t in page.evaluate(_TEXTS, card)]
    assert "Q7" in texts and texts.count("R") == 2  # the code, and the colour's letter twice


_BANNER = """async ([display, interactive]) => {
  const { renderTable } = await import("/static/js/render.js");
  const box = document.createElement("div");
  renderTable(box, display, interactive ? { onAction: () => {} } : {});
  return box.querySelector(".cf-banner").textContent;
}"""


def _display(prompt: str, *, mine: bool) -> dict[str, Any]:
    players = [
        {"seat": 0, "name": "Ann", "you": True, "to_act": mine, "score": "", "facts": []},
        {"seat": 1, "name": "Bob", "you": False, "to_act": not mine, "score": "", "facts": []},
    ]
    actions = [{"notation": "draw", "label": "Draw", "target": None, "source": None}]
    return {"game": "x", "seat": 0, "status": "", "prompt": prompt, "players": players,
            "zones": [], "actions": actions if mine else [], "over": False}  # fmt: skip


@pytest.mark.parametrize(
    ("prompt", "mine", "shown"),
    [
        ("Your turn: peek at 2 cards.", True, "Your turn: peek at 2 cards."),
        ("Choose a card to keep.", True, "Your turn! Choose a card to keep."),
        ("Waiting for Bob to peek…", False, "Waiting for Bob to peek…"),
        ("Turn up the next prairie card.", False, "Waiting for Bob Turn up the next prairie card."),
    ],
)
def test_the_banner_never_says_the_turn_twice(
    page: Any, prompt: str, mine: bool, shown: str
) -> None:
    assert page.evaluate(_BANNER, [_display(prompt, mine=mine), mine]).strip() == shown


def test_the_banner_knows_how_a_language_says_your_turn(page: Any) -> None:
    shown = page.evaluate(
        """async (display) => { const i18n = await import("/static/js/i18n.js");
        const { renderTable } = await import("/static/js/render.js");
        i18n.setStrings({"web.table.your_turn": "Te jössz!",
                         "web.table.your_turn.said": "Te következel:|Rajtad a sor:"}, "hu");
        const box = document.createElement("div");
        renderTable(box, display, { onAction: () => {} });
        const out = box.querySelector(".cf-banner").textContent;
        await i18n.loadStrings("en"); return out; }""",
        _display("Te következel: rakj le egy lapot.", mine=True),
    )
    assert shown.strip() == "Te következel: rakj le egy lapot."


_PLURAL = """async ([lang, texts, counts]) => {
  const i18n = await import("/static/js/i18n.js");
  i18n.setStrings(texts, lang);
  const out = counts.map((n) => i18n.plural("x.cards", n));
  await i18n.loadStrings("en");
  return out;
}"""


def test_a_counted_text_takes_the_plural_form_of_the_language(page: Any) -> None:
    czech = {"x.cards#one": "{count} karta", "x.cards#few": "{count} karty",
             "x.cards#many": "{count} karty", "x.cards#other": "{count} karet"}  # fmt: skip
    assert page.evaluate(_PLURAL, ["cs", czech, [1, 3, 5, 22, 0]]) == [
        "1 karta", "3 karty", "5 karet", "22 karet", "0 karet",
    ]  # fmt: skip
    english = {"x.cards#one": "{count} card", "x.cards#other": "{count} cards"}
    assert page.evaluate(_PLURAL, ["en", english, [1, 3]]) == ["1 card", "3 cards"]
    hungarian = {"x.cards#one": "{count} lap", "x.cards#other": "{count} lap"}
    assert page.evaluate(_PLURAL, ["hu", hungarian, [1, 4]]) == ["1 lap", "4 lap"]


def test_every_counted_text_has_each_plural_variant_in_every_language() -> None:
    counted = {key.partition("#")[0] for key in STRINGS if "#" in key}
    assert counted >= {"web.table.cards", "web.players.count"}
    for language in ("en", "hu", "cs"):
        texts = strings(language)
        for message_id in counted:
            assert all("{count}" in texts[i] for i in plural_ids(message_id)), (language, texts)


def test_a_bot_is_named_in_the_page_language(page: Any) -> None:
    hungarian = {"web.seat.bot": "{number}. bot ({level})", "web.level.easy": "könnyű"}
    named = page.evaluate(
        """async (texts) => { const i18n = await import("/static/js/i18n.js");
        i18n.setStrings(texts, "hu"); const out = i18n.botName(2, "easy");
        await i18n.loadStrings("en"); return out; }""",
        hungarian,
    )
    assert named == "2. bot (könnyű)"
    assert json.dumps(STRINGS["web.seat.bot"]) == '"Bot {number} ({level})"'
