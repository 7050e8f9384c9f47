"""``python -m campfire.web``: start ``campfire serve`` and open the lobby in a browser.

What ``make run`` does: the server on 127.0.0.1 (port 8000, or a free one if it is taken) with
the default database (an SQLite file in the user data directory), the lobby's address printed,
and, where a desktop exists, opened in the default browser once the server answers.
``Ctrl+C`` stops it. ``campfire play`` stays the way to play in the terminal.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import threading
import urllib.request

from campfire.i18n import _, resolve_language, set_language


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
    """Run the server and show where the lobby is."""
    set_language(resolve_language())
    parser = argparse.ArgumentParser(
        prog="python -m campfire.web",
        description=_("Start the game server and open the lobby in the browser."),
    )
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on"))
    parser.add_argument("--port", type=int, default=8000, help=_("port to listen on"))
    parser.add_argument("--no-open", action="store_true", help=_("do not open a browser"))
    args = parser.parse_args(argv)
    try:
        import uvicorn

        from campfire.server.app import create_app
    except ImportError as exc:
        print(
            _(
                "campfire serve needs the server extra ({name} is missing): "
                "pip install 'campfire-games[server]'"
            ).format(name=exc.name),
            file=sys.stderr,
        )
        return 2
    port = free_port(args.host, args.port)
    url = f"http://{args.host}:{port}/"
    print(_("Campfire's lobby: {url} (Ctrl+C stops the server)").format(url=url), flush=True)
    if not args.no_open and has_desktop():
        threading.Thread(target=_open_when_ready, args=(url,), daemon=True).start()
    uvicorn.run(create_app(), host=args.host, port=port, ws_max_size=64 * 1024, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
