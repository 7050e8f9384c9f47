"""Real-time Apache in two browsers: both claim in the same window, the first to reach the
server gets the booty.

Cards are turned up (both pass) until one comes that both may claim without a penalty; then
Ann claims with a key (the claim panel's number) and Bob taps his claim once Ann's has reached
the server (his page shows the step it made). The window's log line lists the claims in the
order of their measured times, Ann's first, and the booty goes to Ann.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .people import _click, create_table, join_table, must, seq_of, start, until

PENALTY = "penalty"


def _claims(page: Any) -> list[tuple[str, str]]:
    """The claim panel's buttons: (key, accessible name)."""
    found: list[list[str]] = page.locator("#cf-realtime button").evaluate_all(
        "bs => bs.map(b => [b.dataset.key || '', b.getAttribute('aria-label') || ''])"
    )
    return [(key, label) for key, label in found]


def _legal_claim(claims: list[tuple[str, str]]) -> tuple[str, str] | None:
    for key, label in claims:
        if label.startswith("Claim") and PENALTY not in label:
            return key, label
    return None


@pytest.mark.slow
def test_first_claim_to_reach_the_server_gets_the_booty(server: Any, new_page: Any) -> None:
    ann, bob = new_page(), new_page(390, 844)
    table = create_table(ann, server.base, "apache", 2, ["open"], name="Ann", realtime=True)
    join_table(bob, server.base, table, "Bob")
    start(ann)
    bob.locator("#cf-board .cf-table-view").wait_for()
    ann.locator("#cf-latency[data-ms]").wait_for()  # the measured round trip is on show
    reveal = re.compile("^Turn up the next prairie card")
    for _ in range(100):  # cards until both may claim the same one without a penalty
        for page in (ann, bob):  # whoever turns up the card does it
            button = page.get_by_role("button", name=reveal)
            if button.count():
                button.click()
                break
        else:
            raise AssertionError("nobody could turn up a card")
        must(ann, lambda: _claims(ann) and _claims(bob), "both claim panels")
        mine, his = _legal_claim(_claims(ann)), _legal_claim(_claims(bob))
        if mine and his:
            break
        for page in (ann, bob):  # nothing to win here: both pass (unless the window closed)
            passing = page.locator("#cf-realtime").get_by_role("button", name=re.compile("^Pass"))
            if passing.count():
                _click(passing)
        must(
            ann,
            lambda: (
                ann.get_by_role("button", name=reveal).count()
                or bob.get_by_role("button", name=reveal).count()
            ),
            "the next card",
        )
    else:
        raise AssertionError("no card both could claim")
    before = seq_of(bob)
    ann.keyboard.press(mine[0])  # Ann: by key
    must(bob, lambda: seq_of(bob) > before, "Ann's claim at the server")
    bob.locator("#cf-realtime").get_by_role("button", name=his[1]).click()  # Bob: by tap
    log = ann.locator("#cf-log")
    line = must(
        ann,
        lambda: next(
            (t for t in log.locator("li").all_inner_texts() if t.startswith("Claims, in order")),
            None,
        ),
        "the window's claims in order",
    )
    assert line.index("Ann") < line.index("Bob"), line
    times = [int(ms) for ms in re.findall(r"(\d+) ms", line)]
    assert len(times) == 2 and times[0] < times[1], line

    # the booty goes to Ann (she may first have to say what her card takes)
    def resolved() -> str | None:
        offered = ann.locator("#cf-board button.cf-actionable, #cf-board .cf-actions button")
        if offered.count() and not ann.locator("#cf-realtime button").count():
            _click(offered.first)
        texts = bob.locator("#cf-log li").all_inner_texts()
        return next((t for t in texts if re.match(r"Ann's \w+ takes", t)), None)

    assert must(bob, resolved, "Ann taking the booty")
    ann_log = ann.locator("#cf-log li").all_inner_texts()
    assert any(re.match(r"Your \w+ takes", t) for t in ann_log), ann_log
    assert ann.errors == [] and bob.errors == []


def _contrast(ink: str, paper: str) -> float:
    """The WCAG contrast ratio of two CSS ``rgb(…)`` colours."""

    def luminance(colour: str) -> float:
        channels = [int(c) / 255 for c in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(ink), luminance(paper)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _panel_facts(page: Any) -> dict[str, Any] | None:
    """While the claim panel shows buttons: whether the card just turned up (the table's last
    card) lies wholly in the viewport and above the panel, and the penalised buttons' names."""
    facts: dict[str, Any] | None = page.evaluate(
        """() => {
          const box = document.getElementById("cf-realtime");
          const buttons = [...box.querySelectorAll("button.cf-claim")];
          const table = [...document.querySelectorAll('#cf-board [data-card^="table:"]')];
          if (box.hidden || !buttons.length || !table.length) return null;
          const card = table[table.length - 1].getBoundingClientRect();
          const panel = box.getBoundingClientRect();
          const penalised = buttons.filter((b) => b.dataset.penalised === "true");
          return {
            visible: card.top >= 0 && card.bottom <= Math.min(innerHeight, panel.top)
              && card.height > 0,
            penalised: penalised.map((b) => [
              b.getAttribute("aria-label"), b.getAttribute("aria-description"),
              getComputedStyle(b).backgroundColor,
            ]),
            others: buttons.filter((b) => b.dataset.penalised !== "true"
              && !b.classList.contains("cf-claim-pass"))
              .map((b) => getComputedStyle(b).backgroundColor),
          };
        }"""
    )
    return facts


@pytest.mark.slow
def test_a_phone_sees_the_card_turned_up_above_a_compact_claim_panel(
    server: Any, new_page: Any
) -> None:
    """At 390×844 the claim panel is a bottom sheet of small buttons: the card just turned up
    stays in the viewport above it, and a claim that would cost a penalty looks apart and says
    so to a screen reader. The real-time prompt asks which card claims, not how fast."""
    ann = new_page(390, 844)
    create_table(ann, server.base, "apache", 2, ["easy"], name="Ann", realtime=True)
    start(ann)
    reveal = re.compile("^Turn up the next prairie card")
    # a zone's button (turn up a card, draw a card) keeps its white text readable when hovered
    deck = ann.locator("#cf-board .cf-zone-button").first
    deck.wait_for()  # the first seat turns up the first card
    deck.hover()
    ink, paper = deck.evaluate(
        "b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]"
    )
    assert _contrast(ink, paper) >= 4.5, (ink, paper)
    seen = None
    for _ in range(60):  # windows until one offers Ann a claim that costs a penalty
        button = ann.get_by_role("button", name=reveal)
        if button.count():
            _click(button)
        facts = until(ann, lambda: _panel_facts(ann), 10)
        if facts and facts["penalised"]:
            seen = facts
            prompt = ann.locator("#cf-board").inner_text()
            assert "how fast" not in prompt
            assert "claim with one of your hand cards, or pass" in prompt
            break
        ann.wait_for_timeout(300)
    assert seen, "no claim window offered a penalised claim"
    assert seen["visible"], "the card just turned up is not in sight above the claim panel"
    for label, description, colour in seen["penalised"]:
        assert PENALTY in label and description == "This answer costs a penalty now"
        assert colour not in seen["others"]
    assert ann.errors == []
