"""The browser client's routes: its pages, static files, texts and rules.

- ``GET /`` the lobby page, ``GET /t/{id}`` a table's page, ``GET /account`` the account page
  (static HTML; the JavaScript modules draw everything from the lobby and account APIs and the
  table socket);
- ``GET /static/...`` the client's files (``campfire/web/static``; no path leaves that folder);
- ``GET /api/strings?lang=xx`` the client's texts (``campfire.web.strings.STRINGS``) in a
  language, as ``{id: text}``;
- ``GET /api/play-modes`` each game's play modes (the lobby offers real time where a game has
  the ``realtime-claims`` mode);
- ``GET /api/tables/{id}/settings`` a table's clock, bot takeover and real-time settings and the
  game's play modes (what the table page needs besides the protocol's frames);
- ``GET /rules/{game}?lang=xx`` the game's rules summary as a simple HTML page.

A page's address that leads nowhere (no such table, no such game's rules) is answered with an
HTML page that says so, in the request's language (:mod:`.pages`); the API's routes answer
JSON errors.

The language is ``lang`` when given, else the request's ``Accept-Language`` (English by
default). ``docs/web.md`` describes the client.

``python -m campfire.server.web`` (what ``make run`` does) starts the server on 127.0.0.1 with the
default database (an SQLite file in the user data directory, or in ``$CAMPFIRE_DATA_DIR``), says
where the games are kept, prints the lobby's address and, where a desktop exists, opens it in the
default browser once the server answers. Without ``--port`` it listens on port 8000, or on a free
one when 8000 is taken (and says which, and whether a Campfire server answers on 8000); a port
asked for with ``--port`` that is taken is an error. ``Ctrl+C`` stops it, and so does closing the
terminal it runs in the foreground of (:class:`TerminalStop`).
"""

from __future__ import annotations

import argparse
import html
import json
import os
import signal
import socket
import sys
import threading
import time
import urllib.request
from types import FrameType
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from campfire.core import CampfireError, all_games
from campfire.core import get as get_game
from campfire.core.hangup import foreground_terminal, terminal_gone
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
from .pages import missing_page, shown
from .static_files import StaticFiles

__all__ = [
    "DEFAULT_PORT",
    "PortTaken",
    "TerminalStop",
    "choose_port",
    "has_desktop",
    "language_of",
    "main",
    "routes",
]

#: files the browser may keep only after asking whether they changed
_NO_CACHE = {"Cache-Control": "no-cache"}


def _table_number(raw: str) -> int | None:
    """A table id from a path (``None``: not one: not all ASCII digits, or too long)."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 12 else None


async def lobby_page(request: Request) -> Response:
    """``GET /``: the lobby."""
    return FileResponse(static_dir() / "index.html", headers=_NO_CACHE)


async def account_page(request: Request) -> Response:
    """``GET /account``: sign in or up, and the signed-in person's account (docs/accounts.md)."""
    return FileResponse(static_dir() / "account.html", headers=_NO_CACHE)


async def play_page(request: Request) -> Response:
    """``GET /play``: the quick match's waiting page (``docs/web.md``, "Play now")."""
    return FileResponse(static_dir() / "play.html", headers=_NO_CACHE)


def table_exists(request: Request, table_id: int) -> bool:
    """Whether the server has table ``table_id`` (in memory, or in the database).

    The database is read, not the table loaded: with several processes another may own it.
    """
    manager = request.app.state.manager
    return table_id in manager.tables or manager.store.table(table_id) is not None


async def table_page(request: Request) -> Response:
    """``GET /t/{id}``: a table (the id is read by the page's script).

    An id that is no table's (not a number, or no such table) is answered with the page that
    says so (404, :func:`.pages.missing_page`), never with the table page.
    """
    raw = request.path_params["table_id"]
    number = _table_number(raw)
    if number is None or not table_exists(request, number):
        return missing_page(request, 404, "table", {"table": shown(raw)})
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
    if game is None:  # the page that says so, with the rules Campfire has
        return missing_page(request, 404, "rules", {"name": shown(name)}, rules=True)
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
        Route("/t/{table_id}", table_page, methods=["GET"]),
        Route("/account", account_page, methods=["GET"]),
        Route("/play", play_page, methods=["GET"]),
        Route("/api/strings", ui_strings, methods=["GET"]),
        Route("/api/play-modes", play_modes, methods=["GET"]),
        Route("/api/tables/{table_id}/settings", guarded(table_settings), methods=["GET"]),
        Route("/rules/{game}", rules_page, methods=["GET"]),
        Route("/static/{path:path}", StaticFiles(static_dir()).endpoint, methods=["GET"]),
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


#: The port ``make run`` listens on unless told otherwise (``make run PORT=N``, ``--port N``).
DEFAULT_PORT = 8000


def free_port(host: str, preferred: int) -> int:
    """``preferred`` if it is free on ``host``, else a port the system picks.

    Raises :class:`OSError` when nothing can be bound on ``host`` (not an address of this
    machine).
    """
    for port in (preferred, 0):
        with socket.socket() as s:
            try:
                s.bind((host, port))
            except OSError:
                if port == 0:
                    raise
                continue
            chosen: int = s.getsockname()[1]
            return chosen
    raise AssertionError("unreachable")  # pragma: no cover


def _lobby_url(host: str, port: int) -> str:
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def campfire_answers(url: str) -> bool:
    """Whether a Campfire server answers at ``url`` (its ``GET /healthz``, within a second)."""
    try:
        with urllib.request.urlopen(url + "healthz", timeout=1) as answer:
            body = json.loads(answer.read(200))
    except (OSError, ValueError):
        return False
    return isinstance(body, dict) and body.get("status") in ("ok", "starting")


class PortTaken(OSError):
    """The port asked for is taken (the message says by whom, and what to do)."""


def choose_port(host: str, port: int | None, default: int | None = None) -> tuple[int, str]:
    """The port to listen on, and what to say about it (``""``: nothing).

    ``port`` asked for (``--port``): that one, or :class:`PortTaken` with a message that says it
    is taken and by whom. Not asked for: ``default`` (:data:`DEFAULT_PORT`), or, when it is
    taken, a free one, saying which port was taken, by whom, and which one is used instead.
    :class:`OSError` when nothing can be bound on ``host``.
    """
    if port is not None:
        if free_port(host, port) != port:
            raise PortTaken(_port_taken(host, port))
        return port, ""
    default = DEFAULT_PORT if default is None else default
    chosen = free_port(host, default)
    if chosen == default:
        return chosen, ""
    old = _lobby_url(host, default)
    if campfire_answers(old):
        note = _(
            "Port {port} is taken: another Campfire server answers at {url} (with its own "
            "tables and links); this one listens on port {free} instead (make run PORT=N "
            "chooses the port)."
        )
    else:
        note = _(
            "Port {port} is taken by another program; this server listens on port {free} "
            "instead (make run PORT=N chooses the port)."
        )
    return chosen, note.format(port=default, url=old, free=chosen)


def _port_taken(host: str, port: int) -> str:
    url = _lobby_url(host, port)
    if campfire_answers(url):
        text = _(
            "port {port} on {host} is taken: another Campfire server answers at {url}; stop it "
            "(Ctrl+C in its terminal), or choose another port (make run PORT=N, --port N)"
        )
    else:
        text = _(
            "port {port} on {host} is taken by another program: choose another port "
            "(make run PORT=N, --port N)"
        )
    return text.format(port=port, host=host, url=url)


#: How often (seconds) :class:`TerminalStop` checks that the terminal is still there.
CHECK_INTERVAL = 0.5


class TerminalStop:
    """Stop the server as ``Ctrl+C`` does when the terminal it runs in goes away.

    A server started in the foreground of a terminal (``make run``) must not outlive it: when the
    window is closed (or ``tmux kill-session``, a dropped SSH connection) the kernel hangs the
    terminal up and sends ``SIGHUP`` to the session's leader only. When the server leads the
    session, ``SIGHUP`` arrives; under ``make run``, GNU make leads it and does not pass the
    signal on (it waits for its children), so a thread also checks twice a second whether the
    terminal has hung up (as ``campfire play`` does, ``docs/play.md``).

    Either way the server gets ``SIGTERM``, which uvicorn answers as it does ``Ctrl+C``: it stops
    accepting, finishes the requests in flight, asks the table sockets to reconnect (close code
    1012) and runs the application's shutdown (the database is closed). The process then exits
    with status 129 (128 + ``SIGHUP``), or 143 after a plain ``SIGTERM``.

    Nothing is installed where ``SIGHUP`` is ignored (``nohup make run &``: the server is meant
    to outlive the terminal) or does not exist (Windows), and the terminal is watched only when
    the server was started in its foreground (not ``make run & disown``).
    """

    def __init__(self) -> None:
        #: the exit status once stopping has begun (``None``: not yet)
        self.status: int | None = None

    def install(self) -> bool:
        """Install the signal handlers and the watch; ``False`` where nothing is installed."""
        hang_up = getattr(signal, "SIGHUP", None)
        if hang_up is None or signal.getsignal(hang_up) is signal.SIG_IGN:
            return False
        signal.signal(signal.SIGTERM, self._terminated)
        signal.signal(hang_up, self._hung_up)
        fd = foreground_terminal()
        if fd is not None:
            threading.Thread(target=self._watch, args=(fd,), name="terminal", daemon=True).start()
        return True

    def stop(self, status: int) -> None:
        """Stop the server (``SIGTERM`` to this process) and exit with ``status`` afterwards.

        Only the first call counts.
        """
        if self.status is not None:
            return
        self.status = status
        os.kill(os.getpid(), signal.SIGTERM)

    def _hung_up(self, signum: int, frame: FrameType | None) -> None:
        self.stop(128 + signum)

    def _terminated(self, signum: int, frame: FrameType | None) -> None:
        # Before uvicorn serves (it replaces this handler meanwhile) or once it has stopped (it
        # then raises the signal it caught again): leave.
        raise SystemExit(self.status if self.status is not None else 128 + signum)

    def _watch(self, fd: int) -> None:
        while self.status is None:
            time.sleep(CHECK_INTERVAL)
            if terminal_gone(fd):
                self.stop(128 + signal.SIGHUP)


def _open_when_ready(url: str) -> None:
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
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=_("port to listen on (default: {port}, or a free one if it is taken)").format(
            port=DEFAULT_PORT
        ),
    )
    parser.add_argument("--no-open", action="store_true", help=_("do not open a browser"))
    args = parser.parse_args(argv)
    import uvicorn

    from .app import create_app
    from .db import default_database_url
    from .graceful_server import GracefulServer
    from .limits import Limits

    try:
        port, note = choose_port(args.host, args.port)
    except PortTaken as exc:
        print(f"{parser.prog}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        reason = exc.strerror or str(exc)
        message = _("cannot listen on {host}: {reason}").format(host=args.host, reason=reason)
        print(f"{parser.prog}: {message}", file=sys.stderr)
        return 1
    if note:
        print(note, flush=True)
    database = default_database_url().removeprefix("sqlite:///")
    print(_("Games are kept in {path} (CAMPFIRE_DATA_DIR moves it).").format(path=database))
    url = _lobby_url(args.host, port)
    print(_("Campfire's lobby: {url} (Ctrl+C stops the server)").format(url=url), flush=True)
    stop = TerminalStop()
    stop.install()
    if not args.no_open and has_desktop():
        threading.Thread(target=_open_when_ready, args=(url,), daemon=True).start()
    config = uvicorn.Config(
        create_app(),
        host=args.host,
        port=port,
        ws_max_size=64 * 1024,
        log_level="warning",
        **Limits().uvicorn_options(),
    )
    # stopped as campfire serve is (graceful.py): the action in flight committed, the table
    # sockets closed with 1012, within a bound
    server = GracefulServer(config)
    server.run()
    if not server.started:
        return 3  # (uvicorn's status when the server could not start)
    return stop.status or 0


if __name__ == "__main__":
    sys.exit(main())
