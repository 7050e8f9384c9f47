"""The client's files served from memory (campfire.server.static_files)."""

from __future__ import annotations

import os
from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from campfire.server.static_files import StaticFiles


def _app(folder: Path) -> tuple[TestClient, StaticFiles]:
    files = StaticFiles(folder)
    app = Starlette(routes=[Route("/static/{path:path}", files.endpoint, methods=["GET"])])
    return TestClient(app), files


def test_files_are_served_with_an_etag_and_a_304_when_held(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;", encoding="utf-8")
    (tmp_path / "b.css").write_text("body { margin: 0; }", encoding="utf-8")
    client, _ = _app(tmp_path)
    answer = client.get("/static/js/a.js")
    assert answer.status_code == 200 and answer.text == "export const a = 1;"
    assert answer.headers["content-type"] == "text/javascript; charset=utf-8"
    assert answer.headers["last-modified"].endswith("GMT")
    etag = answer.headers["etag"]
    held = client.get("/static/js/a.js", headers={"If-None-Match": f'W/"x", {etag}'})
    assert held.status_code == 304 and held.content == b"" and held.headers["etag"] == etag
    other = client.get("/static/js/a.js", headers={"If-None-Match": '"nothing"'})
    assert other.status_code == 200 and other.text == "export const a = 1;"
    assert client.get("/static/b.css").headers["content-type"] == "text/css; charset=utf-8"
    assert client.post("/static/js/a.js").status_code == 405


def test_no_path_leaves_the_folder_and_unknown_files_are_404(tmp_path: Path) -> None:
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / "a.js").write_text("1", encoding="utf-8")
    (tmp_path.parent / "secret.txt").write_text("no", encoding="utf-8")
    client, files = _app(tmp_path / "inner")
    for path in ("../secret.txt", "%2e%2e/secret.txt", "..%2fsecret.txt", "nothing.js", ""):
        answer = client.get(f"/static/{path}")
        assert answer.status_code == 404 and answer.text == "Not Found", path
    assert files.get("../secret.txt") is None and files.get("/a.js") is None


def test_a_file_changed_on_the_disk_is_read_again_and_a_removed_one_is_gone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "a.js"
    path.write_text("one", encoding="utf-8")
    client, _ = _app(tmp_path)
    first = client.get("/static/a.js")
    path.write_text("two, longer", encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = client.get("/static/a.js")
    assert second.text == "two, longer" and second.headers["etag"] != first.headers["etag"]
    path.unlink()
    assert client.get("/static/a.js").status_code == 404
    (tmp_path / "new.js").write_text("later", encoding="utf-8")
    assert client.get("/static/new.js").status_code == 404  # found at the start only
