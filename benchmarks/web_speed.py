"""Speed of the browser client on loopback (issue 15 item 8), measured in Chromium.

Two figures, each over several runs against a real ``campfire serve`` on 127.0.0.1 (a fresh
SQLite file, removed at the end), Tracker tables where seat 0 is a person and the others bots:

- **first paint of a table page** (target: under 1 s): a new browser context (nothing cached)
  opens ``/t/<id>`` with the seat's token; the page's own clock gives the first contentful paint
  (``performance`` paint entries) and the moment the table is drawn (``.cf-table-view`` in the
  DOM: the strings, the lobby API, the socket's snapshot and the drawing all done), both from
  the start of the navigation;
- **a click's effect** (target: within one network round trip plus 50 ms): the person clicks
  what the table offers; from the click (the page's clock, in the capture phase) to the moment
  the page shows the new sequence number of the step the server accepted (``body[data-seq]``
  changes: the action went to the server, was applied, stored, broadcast and drawn). The
  round trip is measured beside it in the same page: a spectator WebSocket to the same table
  sends ``ping`` and times the ``pong``.

The clicks that only open a menu or pick up a card (no message) are followed by the one that
sends; the effect is measured from the last click before the change.

    .venv/bin/python benchmarks/web_speed.py                 # 5 page loads, 30 clicks
    .venv/bin/python benchmarks/web_speed.py --loads 10 --clicks 60
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_browser import (
    chromium,
    click_something,
    my_turn,
    person_table,
    seat_link,
    serve,
    wait_for_js,
)

#: recorded in every page before its scripts run: when the table is first drawn, the clicks,
#: and when the sequence number shown changes
PROBE = """
window.__cf = {drawn: null, clicks: [], changes: []};
new MutationObserver(() => {
  if (window.__cf.drawn === null && document.querySelector('#cf-board .cf-table-view')) {
    window.__cf.drawn = performance.now();
  }
}).observe(document, {subtree: true, childList: true});
document.addEventListener('click', () => window.__cf.clicks.push(performance.now()), true);
new MutationObserver(() => {
  window.__cf.changes.push([performance.now(), document.body.dataset.seq]);
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-seq']});
"""

#: a spectator socket in the page that measures ping → pong round trips (milliseconds)
ROUND_TRIPS = """
async ([url, count]) => {
  const ws = new WebSocket(url);
  await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
  const times = [];
  let sent = 0;
  await new Promise((done) => {
    ws.onmessage = (event) => {
      if (JSON.parse(event.data).type !== 'pong') return;
      times.push(performance.now() - sent);
      if (times.length >= count) return done();
      setTimeout(() => { sent = performance.now(); ws.send('{"type": "ping"}'); }, 20);
    };
    sent = performance.now();
    ws.send('{"type": "ping"}');
  });
  ws.close();
  return times;
}
"""


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def first_paint(browser: Any, base: str, loads: int) -> list[dict[str, float]]:
    """Open a fresh table's page ``loads`` times, each in a new context; the timings (ms)."""
    out = []
    for _ in range(loads):
        table, token = person_table(base, "tracker", 3)
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
        context.add_init_script(PROBE)
        page = context.new_page()
        page.goto(seat_link(base, table, token))
        wait_for_js(page, "window.__cf && window.__cf.drawn !== null", timeout=20_000)
        timing = page.evaluate(
            """() => ({
              fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
              drawn: window.__cf.drawn,
            })"""
        )
        out.append({"fcp": float(timing["fcp"] or 0.0), "drawn": float(timing["drawn"])})
        context.close()
    return out


def clicks(
    browser: Any, base: str, count: int, seed: int = 1, seconds: float = 300.0
) -> dict[str, list[float]]:
    """Click ``count`` actions at a Tracker table (for at most ``seconds``); each click's
    effect and the round trips."""
    rng = random.Random(seed)
    effects: list[float] = []
    trips: list[float] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    context.add_init_script(PROBE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    table, token = person_table(base, "tracker", 3)
    page.goto(seat_link(base, table, token))
    page.locator("#cf-board .cf-table-view").wait_for()
    ws = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
    deadline = time.monotonic() + seconds
    for _ in range(count * 20):
        if len(effects) >= count or time.monotonic() > deadline:
            break
        if page.locator("#cf-board .cf-result").count():  # a new table for the next clicks
            table, token = person_table(base, "tracker", 3)
            page.goto(seat_link(base, table, token))
            page.locator("#cf-board .cf-table-view").wait_for()
            ws = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
            continue
        if not my_turn(page):
            page.wait_for_timeout(20)
            continue
        seq = page.locator("body").get_attribute("data-seq")
        page.evaluate("window.__cf.clicks = []; window.__cf.changes = []")
        if not click_something(page, rng):
            continue
        try:
            wait_for_js(page, f"window.__cf.changes.some(([, s]) => s !== {seq!r})", timeout=5000)
        except Exception:  # a click that only opened a menu or picked a card: click on
            continue
        probe = page.evaluate("window.__cf")
        changed = next(t for t, s in probe["changes"] if s != seq)
        before = [c for c in probe["clicks"] if c <= changed]
        if before:
            effects.append(changed - before[-1])
            trips.extend(page.evaluate(ROUND_TRIPS, [ws, 3]))
    context.close()
    return {"effects": effects, "round_trips": trips}


def main(argv: list[str] | None = None) -> int:
    """Measure and print a Markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5, help="table pages to open (default 5)")
    parser.add_argument("--clicks", type=int, default=30, help="clicks to time (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 1 <= args.loads <= 200 or not 1 <= args.clicks <= 1000:
        parser.error("--loads is 1–200 and --clicks 1–1000")
    with serve(None) as (base, _pid), chromium() as browser:
        loads = first_paint(browser, base, args.loads)
        measured = clicks(browser, base, args.clicks, args.seed)
    fcp = [x["fcp"] for x in loads]
    drawn = [x["drawn"] for x in loads]
    effects, trips = measured["effects"], measured["round_trips"]
    if not effects:
        print("no click could be timed", file=sys.stderr)
        return 1
    rtt = statistics.median(trips)
    print(f"| figure (ms, {len(loads)} loads, {len(effects)} clicks) | median | p90 | max |")
    print("|---|---|---|---|")
    rows = (
        ("first contentful paint of a table page", fcp),
        ("table drawn (snapshot received and rendered)", drawn),
        ("click → the accepted step shown", effects),
        ("round trip (WebSocket ping → pong)", trips),
    )
    for label, values in rows:
        print(
            f"| {label} | {statistics.median(values):.0f} | {_pct(values, 0.9):.0f} "
            f"| {max(values):.0f} |"
        )
    paint, worst = statistics.median(drawn), max(drawn)
    over, over90 = statistics.median(effects) - rtt, _pct(effects, 0.9) - rtt
    print()
    print(
        f"first paint (< 1000 ms, the table drawn): median {paint:.0f} ms "
        f"({'met' if paint < 1000 else 'NOT met'}), slowest {worst:.0f} ms "
        f"({'met' if worst < 1000 else 'NOT met'})"
    )
    print(
        f"a click's effect (round trip + 50 ms): median {over:.0f} ms over the median round trip "
        f"({'met' if over <= 50 else 'NOT met'}), p90 {over90:.0f} ms "
        f"({'met' if over90 <= 50 else 'NOT met'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
