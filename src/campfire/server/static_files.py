"""The browser client's files (``GET /static/...``), served from memory.

The client is a few hundred kilobytes of HTML, CSS, JavaScript and pictures
(``campfire/web/static``), asked for by every new page. :class:`StaticFiles` reads each file
once, when the server starts, and answers from memory: no file is opened and no thread is
borrowed per request, so a page's dozen files arrive together even while the server is busy (a
table page fetches its modules at once: docs/web.md, "How the client is organised"). Each
answer carries the file's ``ETag`` (a hash of its bytes) and ``Last-Modified``; a request whose
``If-None-Match`` names the ETag gets ``304 Not Modified`` with no body.

Only the files found at the start are served, by their exact path below the folder: no path
is resolved on the disk, so none can leave the folder (``..``, encoded or not, names no file).
A file changed on the disk since it was read (a developer's edit) is read again at its next
request (one ``stat``, a few microseconds); a file added later is served after a restart.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "a.js").write_text("export const a = 1;")
19
>>> files = StaticFiles(folder)
>>> files.get("a.js").media_type, files.get("../a.js")
('text/javascript; charset=utf-8', None)
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

__all__ = ["StaticFile", "StaticFiles"]

#: the media types of the client's kinds of file (text in UTF-8); others by ``mimetypes``
MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".woff2": "font/woff2",
}


@dataclass(frozen=True)
class StaticFile:
    """One file as it is served: its bytes, media type, ETag, date, and where it lies."""

    path: Path
    data: bytes
    media_type: str
    etag: str
    last_modified: str
    #: (modification time in ns, size) when it was read: a change means reading it again
    stamp: tuple[int, int]

    @classmethod
    def read(cls, path: Path) -> StaticFile:
        """Read ``path`` now."""
        stat = path.stat()
        data = path.read_bytes()
        media = MEDIA_TYPES.get(path.suffix) or (
            mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        )
        return cls(
            path,
            data,
            media,
            '"' + hashlib.sha256(data).hexdigest()[:32] + '"',
            formatdate(stat.st_mtime, usegmt=True),
            (stat.st_mtime_ns, stat.st_size),
        )


class StaticFiles:
    """The files below ``folder``, read once and served from memory (see the module)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: dict[str, StaticFile] = {
            path.relative_to(folder).as_posix(): StaticFile.read(path)
            for path in sorted(folder.rglob("*"))
            if path.is_file()
        }

    def get(self, name: str) -> StaticFile | None:
        """The file ``name`` (a path below the folder, ``/``-separated), fresh; else ``None``."""
        found = self.files.get(name)
        if found is None:
            return None
        try:
            stat = os.stat(found.path)
        except OSError:  # removed since: not served any more
            return None
        if (stat.st_mtime_ns, stat.st_size) != found.stamp:
            found = self.files[name] = StaticFile.read(found.path)
        return found

    async def endpoint(self, request: Request) -> Response:
        """``GET /static/{path}``: the file, ``304`` when the client holds it, else ``404``."""
        found = self.get(request.path_params["path"])
        if found is None:
            return PlainTextResponse("Not Found", status_code=404)
        held = request.headers.get("if-none-match", "")
        if held and found.etag in (tag.strip().removeprefix("W/") for tag in held.split(",")):
            return Response(status_code=304, headers={"etag": found.etag})
        return Response(
            found.data,
            media_type=found.media_type,
            headers={"etag": found.etag, "last-modified": found.last_modified},
        )
