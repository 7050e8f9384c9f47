"""The page a browser gets for a bad link: what was wrong, in plain words, and a way on.

The browser client's page routes (``/t/{id}``, ``/replay``, ``/rules/{game}``, and any other
address that is not the API's, a file's or a socket's) answer a link they cannot serve with an
HTML page, never with the API's JSON errors: an unknown table, a game without rules, a replay
link that names no finished game or is written wrong, an address with no page. The page has the
status of the answer (404, 400, or 409 for a game still being played), says what was wrong and
offers a way on: back to the lobby always, and the replay viewer, the table or the games' rules
where they help.

Its texts are the client's (:data:`campfire.web.strings.STRINGS`, ``web.missing.*``), in the
request's language (``?lang=``, else ``Accept-Language``, else English): what a browser
without scripts shows. Its script (``static/js/missing.js``) then follows the language chosen
in the switcher as the other pages do (``?lang=``, else the saved choice, else the browser's),
and puts the switcher in the header. ``docs/web.md`` describes the pages.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from campfire.core import all_games
from campfire.i18n import game_title, translator
from campfire.web.strings import strings

from .lobby import ERROR_CODES, language_of

__all__ = ["KINDS", "PAGE_PREFIXES", "is_page_path", "missing_page", "not_found", "shown"]

#: What a page can say was wrong (``web.missing.<kind>`` and ``web.missing.<kind>.help``), and
#: the error code it goes with (the API's code for the same thing; ``not_found``: no page).
KINDS: dict[str, str] = {
    "table": "unknown_table",
    "page": "not_found",
    "rules": "unknown_game",
    "game": "no_record",
    "playing": "no_record",
    "replay": "bad_request",
}

#: Addresses that are not pages: the API, the static files, the table sockets, the server's own.
PAGE_PREFIXES = ("/api/", "/static/", "/ws/")
_NOT_PAGES = ("/api", "/static", "/ws", "/healthz", "/metrics")

#: The longest part of an address a page repeats (a longer one is cut, with "…").
SHOWN = 20


def shown(raw: str) -> str:
    """A part of the address as a page repeats it: at most :data:`SHOWN` characters.

    >>> shown("abc"), shown("9" * 25)
    ('abc', '99999999999999999999…')
    """
    return raw if len(raw) <= SHOWN else raw[:SHOWN] + "…"


def is_page_path(path: str) -> bool:
    """Whether ``path`` is one a person opens in the browser (not the API's, a file's, ...).

    >>> is_page_path("/t/abc"), is_page_path("/api/tables/x"), is_page_path("/metrics")
    (True, False, False)
    """
    return not (path in _NOT_PAGES or path.startswith(PAGE_PREFIXES))


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def _text(texts: Mapping[str, str], message_id: str, params: Mapping[str, Any]) -> str:
    template = texts[message_id]
    for name, value in params.items():
        template = template.replace("{" + name + "}", str(value))
    return template


def _element(
    tag: str,
    texts: Mapping[str, str],
    message_id: str,
    params: Mapping[str, Any] | None = None,
    attrs: str = "",
) -> str:
    """``<tag data-t=id>text</tag>``: the text filled now, its id and parameters for the script."""
    params = params or {}
    data = f' data-params="{_attr(json.dumps(params))}"' if params else ""
    body = html.escape(_text(texts, message_id, params))
    return f'<{tag}{attrs} data-t="{message_id}"{data}>{body}</{tag}>'


def missing_page(
    request: Request,
    status: int,
    kind: str,
    params: Mapping[str, Any] | None = None,
    ways: Sequence[tuple[str, str, Mapping[str, Any]]] = (),
    *,
    rules: bool = False,
) -> Response:
    """The page of a bad link: ``kind`` (:data:`KINDS`) says what was wrong, ``status`` the status.

    ``params`` fill the texts' placeholders (``{table}``, ``{number}``, ``{name}``); ``ways``
    are the links offered besides the lobby (``(href, text id, its params)``); ``rules`` lists
    the rules page of every game.
    """
    code = KINDS[kind]
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None and code in ERROR_CODES:
        metrics.error(code, "http")
    language = language_of(request)
    texts = strings(language)
    params = params or {}
    heading = _text(texts, f"web.missing.{kind}", params)
    parts = [
        _element("h2", texts, f"web.missing.{kind}", params, ' id="cf-missing-title"'),
        _element("p", texts, f"web.missing.{kind}.help", params),
    ]
    if rules:
        tr = translator(language)
        items = "".join(
            f'<li><a href="/rules/{g.name}?lang={language}" data-game="{g.name}">'
            f"{html.escape(game_title(g, tr))}</a></li>"
            for g in sorted(all_games(), key=lambda g: g.name)
        )
        parts.append(f'<ul class="cf-missing-list">{items}</ul>')
    links = [
        _element("a", texts, "web.missing.lobby", None, ' class="cf-button cf-primary" href="/"')
    ]
    for href, message_id, link_params in ways:
        links.append(
            _element(
                "a", texts, message_id, link_params, f' class="cf-button" href="{_attr(href)}"'
            )
        )
    parts.append(f'<p class="cf-missing-ways">{" ".join(links)}</p>')
    home = _element("a", texts, "web.app.title", None, ' href="/"')
    page = (
        "<!doctype html>\n"
        f'<html lang="{language}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(heading)} · {html.escape(texts['web.app.title'])}</title>\n"
        '<link rel="stylesheet" href="/static/css/campfire.css">\n'
        '<link rel="stylesheet" href="/static/css/missing.css">\n'
        '<link rel="icon" href="/static/img/campfire.svg" type="image/svg+xml">\n'
        '<script type="module" src="/static/js/missing.js"></script>\n'
        "</head>\n"
        f'<body class="cf-missing-page" data-status="{status}" data-code="{code}">\n'
        '<header class="cf-header">\n<h1><img src="/static/img/campfire.svg" alt="" width="32" '
        f'height="32"> {home}</h1>\n'
        '<span id="cf-lang-slot"></span>\n</header>\n'
        '<main class="cf-missing">\n<section class="cf-panel" aria-labelledby="cf-missing-title">\n'
        + "\n".join(parts)
        + "\n</section>\n</main>\n</body>\n</html>\n"
    )
    return HTMLResponse(
        page,
        status_code=status,
        headers={"Content-Language": language, "Cache-Control": "no-cache"},
    )


async def not_found(request: Request, exc: Exception) -> Response:
    """The app's answer to a 404 (no route, no file): a page for a page's address.

    An address under the API, the static files or the sockets keeps the plain ``Not Found``
    (a script or a program asked for it, not a person); so does any method but ``GET`` and
    ``HEAD``.
    """
    if request.method in ("GET", "HEAD") and is_page_path(request.url.path):
        return missing_page(request, 404, "page")
    detail = exc.detail if isinstance(exc, HTTPException) else "Not Found"
    headers = exc.headers if isinstance(exc, HTTPException) else None
    return PlainTextResponse(detail, status_code=404, headers=headers)
