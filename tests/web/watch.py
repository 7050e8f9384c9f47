"""What a person's browser received and showed, checked against the server's truth afterwards.

:class:`Witness` keeps every WebSocket frame a page receives and, now and then, the text of
its table and log (with the sequence number on show). Once the game is over, the record's seed
replays the game (``to_position()`` at every step, as ``tests/server/test_hidden.py`` does):
no frame and no page may hold a card from a place the page's seat cannot look at, unless that
seat may know it then (its view shows it, or an event addressed to it did).

A card is found by the codes it is written with. Where a game's display writes a hidden card
in words and pictures only (Tracker's "green scout"; Big Manitou's card names, which every seat
holds alike), no code is there to find: the server's test of the same frames
(``tests/server/test_hidden.py``) compares each display of those games with the display of a
determinisation (everything the seat cannot know dealt again) at every step, and the page draws
nothing but those displays.
"""

from __future__ import annotations

import json
from typing import Any

import campfire
from campfire.core.records import Record
from tests.server.test_hidden import _forms, _hidden_places, _tokens

#: the text a page shows: its table, the claim panel, its log (cards may appear in any)
_SHOWN = """() => ({
  seq: Number(document.body.dataset.seq || 0),
  text: ["#cf-board", "#cf-realtime", "#cf-log"].map(
    (s) => (document.querySelector(s) || {}).innerHTML || "").join("\\n"),
})"""


class Witness:
    """The frames a page received and the pages it showed, for one seat."""

    def __init__(self, page: Any, seat: int) -> None:
        self.page = page
        self.seat = seat
        self.frames: list[dict[str, Any]] = []
        self.shown: list[tuple[int, int, str]] = []  # (seq, frames received before, text)
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        text = payload if isinstance(payload, str) else payload.decode()
        frame = json.loads(text)
        if frame.get("type") in ("snapshot", "delta"):
            self.frames.append(frame)

    def look(self) -> None:
        """Keep what the page shows now."""
        shown = self.page.evaluate(_SHOWN)
        self.shown.append((shown["seq"], len(self.frames), shown["text"]))

    def check(self, record: dict[str, Any]) -> int:
        """Check every frame and page kept against the replayed game; return how many."""
        rec = Record.from_json(record)
        game = campfire.get_game(rec.game)
        state = game.new_game(len(rec.players), game.options(rec.options), seed=rec.seed)
        hidden_at: list[set[str]] = []
        # the seat's view at each step (the browser does not ask for views: protocol 4)
        view_at: list[str] = []
        for seat, text in [*rec.actions, (None, None)]:
            view_at.append(json.dumps(state.view(self.seat)))
            hidden_at.append(
                {
                    form
                    for card in _hidden_places(game.name, state.to_position(), self.seat)
                    for form in _forms(game.name, card)
                }
            )
            if seat is not None and text is not None:
                state.apply(seat, game.parse_action(text))
        checked = 0
        told: set[str] = set()  # what events addressed to this seat told it so far
        told_at: list[set[str]] = []
        for frame in self.frames:
            if frame["type"] == "snapshot" and frame["display"] is None:  # before the game
                told_at.append(set(told))
                continue
            if frame["type"] == "snapshot":
                assert frame["seat"] == self.seat
            steps = frame["missed"] if frame["type"] == "snapshot" else [frame["step"]]
            events = [e for s in steps for e in s["events"]]
            for event in events:
                assert "to" not in event or self.seat in event["to"], event
            assert "view" not in frame  # the browser never asks for the raw view
            knowable = _tokens(view_at[frame["seq"]] + json.dumps(events))
            knowable |= _tokens(json.dumps(frame["legal"]))
            leaked = (hidden_at[frame["seq"]] - knowable) & _tokens(json.dumps(frame))
            assert not leaked, (game.name, self.seat, frame["seq"], sorted(leaked))
            told |= _tokens(json.dumps([e for e in events if "to" in e]))
            told_at.append(set(told))
            checked += 1
        for seq, received, text in self.shown:
            last = [
                f
                for f in self.frames[:received]
                if f["type"] == "delta" or (f["type"] == "snapshot" and f["display"] is not None)
            ]
            view = _tokens(view_at[last[-1]["seq"]]) if last else set()
            told_then = told_at[received - 1] if received else set()
            leaked = (hidden_at[seq] - view - told_then) & _tokens(text)
            assert not leaked, (game.name, self.seat, seq, sorted(leaked))
            checked += 1
        return checked
