"""The browser client's routes: its pages, static files, texts and rules.

- ``GET /`` the lobby page, ``GET /t/{id}`` a table's page (both static HTML; the JavaScript
  modules draw everything from the lobby API and the table socket);
- ``GET /static/...`` the client's files (``campfire/web/static``; no path leaves that folder);
- ``GET /api/strings?lang=xx`` the client's texts (``campfire.web.strings.STRINGS``) in a
  language, as ``{id: text}``;
- ``GET /api/play-modes`` each game's play modes (the lobby offers real time where a game has
  the ``realtime-claims`` mode);
- ``GET /api/tables/{id}/settings`` a table's clock, bot takeover and real-time settings and the
  game's play modes (what the table page needs besides the protocol's frames);
- ``GET /rules/{game}?lang=xx`` the game's rules summary as a simple HTML page.

The language is ``lang`` when given, else the request's ``Accept-Language`` (English by
default). ``docs/web.md`` describes the client.

``python -m campfire.server.web`` (what ``make run`` does) starts the server on 127.0.0.1 (port
8000, or a free one if it is taken) with the default database (an SQLite file in the user data
directory), prints the lobby's address and, where a desktop exists, opens it in the default
browser once the server answers. ``Ctrl+C`` stops it.
"""

from __future__ import annotations

import argparse
import html
import os
import socket
import sys
import threading
import urllib.request
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from campfire.core import CampfireError, ErrorText, all_games
from campfire.core import get as get_game
from campfire.i18n import (
    _,
    game_title,
    resolve_language,
    set_language,
    translator,
)
from campfire.i18n.rules import rules_document
from campfire.web import static_dir
from campfire.web.strings import strings

from .lobby import guarded, language_of, live_table
from .tables import LobbyError

__all__ = ["has_desktop", "language_of", "main", "routes"]

#: files the browser may keep only after asking whether they changed
_NO_CACHE = {"Cache-Control": "no-cache"}


def _table_number(raw: str) -> int | None:
    """A table id from a path (``None``: not one: not all ASCII digits, or too long)."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 12 else None


async def lobby_page(request: Request) -> Response:
    """``GET /``: the lobby."""
    return FileResponse(static_dir() / "index.html", headers=_NO_CACHE)


async def table_page(request: Request) -> Response:
    """``GET /t/{id}``: a table (the id is read by the page's script)."""
    raw = request.path_params["table_id"]
    if _table_number(raw) is None:  # (the route is guarded: answered as JSON)
        raise LobbyError(
            404, "unknown_table", ErrorText("there is no table {table}", table=repr(raw[:20]))
        )
    return FileResponse(static_dir() / "table.html", headers=_NO_CACHE)


async def ui_strings(request: Request) -> Response:
    """``GET /api/strings?lang=xx``: the client's texts in the request's language."""
    language = language_of(request)
    return JSONResponse(
        {"lang": language, "strings": strings(language)},
        headers={"Content-Language": language, **_NO_CACHE},
    )


async def play_modes(request: Request) -> Response:
    """``GET /api/play-modes``: each game's play modes, best first (``realtime-claims``, …)."""
    return JSONResponse({g.name: list(g.play_modes) for g in all_games()})


async def table_settings(request: Request) -> Response:
    """``GET /api/tables/{id}/settings``: the table's clock, takeover and real-time settings."""
    live = live_table(request)  # (404 if there is none: the route is guarded)
    settings: dict[str, Any] = dict(live.settings())
    settings["modes"] = list(live.game.play_modes)  # how the game is played: "realtime-claims"
    return JSONResponse(settings)


def _markdown(text: str) -> str:
    from markdown_it import MarkdownIt  # a dependency of Textual, so always installed

    rendered: str = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return rendered


async def rules_page(request: Request) -> Response:
    """``GET /rules/{game}``: the game's rules summary in the request's language, as HTML."""
    name = request.path_params["game"]
    try:
        game = get_game(name) if name.isascii() and name.isidentifier() else None
    except CampfireError:
        game = None
    language = language_of(request)
    if game is None:
        known = ", ".join(sorted(g.name for g in all_games()))
        message = ErrorText(
            "unknown game {name}; known games: {known}", name=repr(name[:20]), known=known
        )
        raise LobbyError(404, "unknown_game", message)  # (the route is guarded)
    text, written_in = rules_document(game, language)
    body = _markdown(text)
    page = (
        f'<!doctype html>\n<html lang="{written_in}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(game_title(game, translator(written_in)))}</title>"
        '<link rel="stylesheet" href="/static/css/campfire.css"></head>'
        f'<body class="cf-rules"><main>{body}</main></body></html>\n'
    )
    return HTMLResponse(page, headers={"Content-Language": written_in})


def routes() -> list[BaseRoute]:
    """The client's routes (add them to the app's routes)."""
    return [
        Route("/", lobby_page, methods=["GET"]),
        Route("/t/{table_id}", guarded(table_page), methods=["GET"]),
        Route("/api/strings", ui_strings, methods=["GET"]),
        Route("/api/play-modes", play_modes, methods=["GET"]),
        Route("/api/tables/{table_id}/settings", guarded(table_settings), methods=["GET"]),
        Route("/rules/{game}", guarded(rules_page), methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=static_dir()), name="static"),
    ]


# ----- make run ----------------------------------------------------------------------------


def has_desktop(environ: dict[str, str] | None = None, platform: str = sys.platform) -> bool:
    """Whether a browser window can be opened here (a desktop session, macOS or Windows).

    >>> has_desktop({}, "linux"), has_desktop({"DISPLAY": ":0"}, "linux"), has_desktop({}, "darwin")
    (False, True, True)
    """
    env = os.environ if environ is None else environ
    if platform in ("darwin", "win32"):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def free_port(host: str, preferred: int) -> int:
    """``preferred`` if it is free on ``host``, else a port the system picks."""
    for port in (preferred, 0):
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            chosen: int = s.getsockname()[1]
            return chosen
    raise OSError(f"no free port on {host}")


def _open_when_ready(url: str) -> None:
    import time
    import webbrowser

    for _attempt in range(200):
        try:
            with urllib.request.urlopen(url + "healthz", timeout=1) as answer:
                if answer.status == 200:
                    webbrowser.open(url)
                    return
        except OSError:
            time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    """``python -m campfire.server.web`` (``make run``): the server, and where the lobby is."""
    set_language(resolve_language())
    parser = argparse.ArgumentParser(
        prog="python -m campfire.server.web",
        description=_("Start the game server and open the lobby in the browser."),
    )
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on"))
    parser.add_argument("--port", type=int, default=8000, help=_("port to listen on"))
    parser.add_argument("--no-open", action="store_true", help=_("do not open a browser"))
    args = parser.parse_args(argv)
    import uvicorn

    from .app import create_app
    from .limits import Limits

    port = free_port(args.host, args.port)
    url = f"http://{args.host}:{port}/"
    print(_("Campfire's lobby: {url} (Ctrl+C stops the server)").format(url=url), flush=True)
    if not args.no_open and has_desktop():
        threading.Thread(target=_open_when_ready, args=(url,), daemon=True).start()
    uvicorn.run(
        create_app(),
        host=args.host,
        port=port,
        ws_max_size=64 * 1024,
        log_level="warning",
        **Limits().uvicorn_options(),
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
