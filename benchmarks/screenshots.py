"""Screenshots of each game's table in Chromium, at 1280×800 (a laptop) and 390×844 (a phone).

For every game it starts a table where seat 0 is a person and the other seats bots, opens the
table page in Chromium with that seat's token, plays by clicking what the page offers until the
game is a good way in (``--steps``; the person's turn again, so the legal moves are highlighted),
then saves the page at both sizes, the phone's from a second browser holding the same seat:

    test-artifacts/screenshots/<game>-1280x800.png
    test-artifacts/screenshots/<game>-390x844.png

``--docs`` also copies each game's laptop picture to ``docs/screenshots/<game>.png`` (the ones the
README shows). The server is a real ``campfire serve`` on 127.0.0.1 with a fresh SQLite file,
stopped and removed at the end; the play is seeded (``--seed``) but the bots' timing is not, so
two runs can differ in detail.

    .venv/bin/python benchmarks/screenshots.py            # every game
    .venv/bin/python benchmarks/screenshots.py --docs     # and refresh docs/screenshots/
    .venv/bin/python benchmarks/screenshots.py --game tracker --steps 30
    .venv/bin/python benchmarks/screenshots.py --lang hu   # a Hungarian browser: <game>-hu-…png
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_browser import chromium, person_table, play_until, seat_link, serve, wait_for_js

ROOT = Path(__file__).resolve().parents[1]
#: where the pictures go (ignored by git)
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
#: the pictures the README shows
DOCS = ROOT / "docs" / "screenshots"
#: the sizes: a laptop and a phone
SIZES = ((1280, 800), (390, 844))
#: game → (players, the step after which to take the picture: well into the game)
GAMES = {
    "apache": (3, 60),
    "dudab": (3, 40),
    "manitou": (3, 30),
    "tracker": (3, 60),
}


def shoot(
    browser: Any,
    base: str,
    game: str,
    out: Path,
    steps: int | None = None,
    seed: int = 1,
    lang: str = "en",
) -> dict[str, Any]:
    """Play ``game`` to a middle position and save it at every size; what was taken.

    ``lang``: the browser's language (the page's, since no switcher choice is kept); the files
    of another language than English are named ``<game>-<lang>-<size>.png``.
    """
    players, target = GAMES[game]
    if steps is not None:
        target = steps
    table, token = person_table(base, game, players)
    out.mkdir(parents=True, exist_ok=True)
    pages = []
    for width, height in SIZES:
        locale = "en-US" if lang == "en" else lang
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.goto(seat_link(base, table, token))
        page.locator("#cf-board .cf-table-view").wait_for()
        pages.append((width, height, context, page))
    reached = play_until(pages[0][3], target, random.Random(f"{seed}/{game}"))
    files = []
    for width, height, context, page in pages:
        wait_for_js(page, f"Number(document.body.dataset.seq) >= {reached}")
        # the top of the page, no focus ring, the last frame's drawing settled
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(300)
        name = game if lang == "en" else f"{game}-{lang}"
        path = out / f"{name}-{width}x{height}.png"
        page.screenshot(path=str(path))
        files.append(path)
        context.close()
    return {"game": game, "table": table, "seq": reached, "files": files}


def main(argv: list[str] | None = None) -> int:
    """Take the screenshots; print where they are."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only these games")
    parser.add_argument("--steps", type=int, help="take the picture after this many steps")
    parser.add_argument("--seed", type=int, default=1, help="the clicking person's seed")
    parser.add_argument("--out", type=Path, default=ARTIFACTS, help="where the pictures go")
    parser.add_argument("--docs", action="store_true", help="copy the laptop ones to docs/")
    parser.add_argument("--lang", default="en", help="the browser's language (en, hu, cs)")
    args = parser.parse_args(argv)
    with serve(None) as (base, _pid), chromium() as browser:
        for game in args.game or sorted(GAMES):
            taken = shoot(browser, base, game, args.out, args.steps, args.seed, args.lang)
            print(f"{game}: step {taken['seq']} of table {taken['table']}")
            for path in taken["files"]:
                print(f"  {path}")
            if args.docs:
                DOCS.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(taken["files"][0], DOCS / f"{game}.png")
                print(f"  -> {DOCS / f'{game}.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
