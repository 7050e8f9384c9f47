"""docs/protocol.md shows every message's JSON Schema exactly as the code holds it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from campfire.server.protocol import CLIENT_SCHEMAS, PROTOCOL_VERSION, SERVER_SCHEMAS

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_the_document_holds_every_schema_and_the_version() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f"Protocol version **{PROTOCOL_VERSION}**" in text
    found = {
        name: json.loads(body)
        for name, body in re.findall(r"#### `(\w+)`.*?```json\n(.*?)\n```", text, re.S)
    }
    assert found == {**CLIENT_SCHEMAS, **SERVER_SCHEMAS}
