"""Tutorials over HTTP (server/learn.py): lessons listed, played step by step, inputs bounded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from starlette.testclient import TestClient

from campfire.core import all_games
from campfire.core.tutorial import MAX_MOVE_CHARS, Tutorial, lessons

from .helpers import app_client

GAME = next(g for g in all_games() if lessons(g))
LESSON = lessons(GAME)[0]
PATH = f"/api/learn/{GAME.name}/{LESSON.id}"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path = tmp_path_factory.mktemp("learn") / "campfire.db"
    with app_client(f"sqlite:///{path}") as c:
        yield c


def _play_through(client: TestClient, game: str, lesson: str, lang: str = "en") -> dict[str, Any]:
    """Every step of a lesson as a learner takes it: Continue past texts, the asked moves."""
    path = f"/api/learn/{game}/{lesson}?lang={lang}"
    frame: dict[str, Any] = client.get(path + "&step=0").json()
    while not frame["finished"]:
        body: dict[str, Any] = {"step": frame["step"]}
        if frame["asked"] is None:
            body["go_on"] = True
        else:
            body["move"] = frame["asked"]["notation"]
        answer = client.post(path, json=body)
        assert answer.status_code == 200, answer.text
        assert answer.json()["correct"]
        frame = answer.json()["frame"]
    return frame


def test_the_page_and_the_list_of_lessons(client: TestClient) -> None:
    """``/learn`` is the page; ``/api/learn`` lists every game's lessons in the reader's words."""
    page = client.get("/learn")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    listed = client.get("/api/learn?lang=hu").json()["games"]
    expected = {g.name: [each.id for each in lessons(g)] for g in all_games() if lessons(g)}
    assert {g["name"]: [each["id"] for each in g["lessons"]] for g in listed} == expected
    first = next(g for g in listed if g["name"] == GAME.name)["lessons"][0]
    assert first["title"] == LESSON.title["hu"]


@pytest.mark.parametrize("game", [g for g in all_games() if lessons(g)], ids=lambda g: g.name)
def test_every_lesson_plays_to_its_end_over_http(client: TestClient, game: Any) -> None:
    """Each lesson of each game, played through the API, ends; the last offers no next one."""
    found = lessons(game)
    for number, each in enumerate(found):
        frame = _play_through(client, game.name, each.id, "cs")
        assert frame["number"] == number + 1 and frame["count"] == len(found)
        assert frame["next"] == (found[number + 1].id if number + 1 < len(found) else None)


def test_a_frame_holds_the_table_the_text_and_the_asked_move(client: TestClient) -> None:
    """A frame at an asked step: the display with the legal moves, the text, the asked move."""
    frame = client.get(f"{PATH}?step=0").json()
    while frame["asked"] is None:
        frame = client.post(PATH, json={"step": frame["step"], "go_on": True}).json()["frame"]
    asked = frame["asked"]
    notations = [a["notation"] for a in frame["display"]["actions"]]
    assert asked["notation"] in notations
    assert asked["label"]
    assert frame["text"] and "{move}" not in frame["text"]
    assert frame["display"]["seat"] == LESSON.learner


def _first_choice(game: Any) -> bool:
    tutorial = Tutorial(game, lessons(game)[0])
    while tutorial.asked is None:
        tutorial.go_on()
    return len([a for a in tutorial.display().actions if a.answer is None]) > 1


def test_a_wrong_move_is_explained_and_the_step_stays(client: TestClient) -> None:
    """A legal move that is not the one asked: ``correct`` false, a note, the same step."""
    game = next(g for g in all_games() if lessons(g) and _first_choice(g))
    path = f"/api/learn/{game.name}/{lessons(game)[0].id}"
    frame = client.get(f"{path}?step=0").json()
    while frame["asked"] is None:
        frame = client.post(path, json={"step": frame["step"], "go_on": True}).json()["frame"]
    other = next(
        a["notation"]
        for a in frame["display"]["actions"]
        if a["notation"] != frame["asked"]["notation"] and a.get("answer") is None
    )
    answer = client.post(f"{path}?lang=hu", json={"step": frame["step"], "move": other}).json()
    assert not answer["correct"]
    assert answer["frame"]["step"] == frame["step"]
    assert "lecke" in answer["note"]  # the Hungarian sentence of core.tutorial.wrong


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("get", "/api/learn/nosuchgame/01-x", None, 404, "unknown_lesson"),
        ("get", f"/api/learn/{GAME.name}/99-none", None, 404, "unknown_lesson"),
        ("get", f"/api/learn/{GAME.name}/01-X%20y", None, 404, "unknown_lesson"),
        ("get", f"{PATH}?step=abc", None, 400, "bad_request"),
        ("get", f"{PATH}?step=99999", None, 400, "bad_request"),
        ("get", f"{PATH}?step=-1", None, 400, "bad_request"),
        ("post", PATH, b"[1]", 400, "bad_request"),
        ("post", PATH, b'{"step": 0, "step": 1, "go_on": true}', 400, "bad_json"),
        ("post", PATH, b'{"step": 0}', 400, "bad_request"),
        ("post", PATH, b'{"step": 0, "go_on": true, "move": "x"}', 400, "bad_request"),
        ("post", PATH, b'{"step": 0, "go_on": true, "admin": 1}', 400, "bad_request"),
        ("post", PATH, b'{"step": "0", "go_on": true}', 400, "bad_request"),
        ("post", PATH, b'{"step": 0, "move": 3}', 400, "bad_request"),
        (
            "post",
            PATH,
            b'{"step": 0, "move": "' + b"x" * (MAX_MOVE_CHARS + 1) + b'"}',
            400,
            "bad_request",
        ),
        ("post", PATH, b'{"step": 0, "move": "' + b"x" * 2000 + b'"}', 413, "too_large"),
    ],
)
def test_bad_requests_are_refused_with_a_reason(
    client: TestClient, method: str, path: str, body: bytes | None, status: int, code: str
) -> None:
    """Every input is bounded: the game, the lesson, the step, the body and its move."""
    if method == "get":
        answer = client.get(path)
    else:
        answer = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code


def test_a_step_that_is_not_where_the_lesson_stops_is_stale(client: TestClient) -> None:
    """A step the lesson passes by (another seat's move) is answered 409 with the real step."""
    found = next(
        (g, each, i)
        for g in all_games()
        for each in lessons(g)
        for i, step in enumerate(each.steps)
        if step.kind == "play" and i > 0
    )
    game, each, index = found
    answer = client.post(f"/api/learn/{game.name}/{each.id}", json={"step": index, "go_on": True})
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "stale_step"


def test_the_protocol_document_shows_the_tutorials_schemas() -> None:
    """docs/protocol.md's "Tutorials" section holds every schema exactly as the code does."""
    from campfire.server.learn import LEARN_SCHEMAS

    from .test_protocol_doc import DOC, _schemas, _section

    text = DOC.read_text(encoding="utf-8")
    assert _schemas(_section(text, "Tutorials (HTTP, JSON)")) == LEARN_SCHEMAS
    for name in LEARN_SCHEMAS:
        jsonschema.Draft202012Validator.check_schema(LEARN_SCHEMAS[name])
