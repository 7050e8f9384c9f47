"""docs/protocol.md shows every schema exactly as the code holds it: messages, lobby, replays."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from campfire.server.lobby import LOBBY_SCHEMAS
from campfire.server.protocol import CLIENT_SCHEMAS, PROTOCOL_VERSION, SERVER_SCHEMAS

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _section(text: str, title: str) -> str:
    """The text of the top-level section ``## title`` (up to the next one)."""
    parts = re.split(r"^## ", text, flags=re.M)
    found = [p for p in parts if p.startswith(title + "\n")]
    assert len(found) == 1, f"docs/protocol.md has no single section '## {title}'"
    return found[0]


def _schemas(section: str) -> dict[str, Any]:
    """The schemas a section shows under ``#### `name` `` headings."""
    shown = re.findall(r"^#### `(\w+)`\n(.*?)```json\n(.*?)\n```", section, re.S | re.M)
    assert all("####" not in between for _, between, _ in shown)  # each heading has its own
    return {name: json.loads(body) for name, _, body in shown}


def test_the_document_holds_every_message_schema_and_the_version() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"Protocol version **{PROTOCOL_VERSION}**" in text
    assert _schemas(_section(text, "Messages")) == {**CLIENT_SCHEMAS, **SERVER_SCHEMAS}


def test_the_document_holds_every_lobby_schema() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert _schemas(_section(text, "Lobby schemas")) == LOBBY_SCHEMAS
    lobby = _section(text, "Lobby (HTTP, JSON)")
    for name in LOBBY_SCHEMAS:  # every schema is named where its route is described
        assert f"`{name}`" in lobby, name


@pytest.mark.parametrize("name", sorted(LOBBY_SCHEMAS))
def test_every_lobby_schema_is_a_valid_json_schema(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(LOBBY_SCHEMAS[name])
