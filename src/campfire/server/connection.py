"""One client connected to a table, and its outbox of frames."""

from __future__ import annotations

import asyncio
from typing import Any

from campfire.core.present import Display
from campfire.i18n import Translator, translator

from . import protocol

__all__ = ["Connection"]


class Connection:
    """One client connected to a table: its seat (``None``: a spectator) and its outbox.

    Frames are put on a bounded queue that the connection's writer sends; a client that does
    not keep up is dropped (:attr:`overflowed`) rather than slowing the table down.
    """

    def __init__(
        self, seat: int | None, limit: int = 1000, language: str = "en", patches: bool = False
    ) -> None:
        self.seat = seat
        #: the language of the connection's display models, log messages and errors
        self.language = language
        #: the client asked for display patches (``patch=1``): its deltas carry ``patch``, the
        #: changes from :attr:`shown`, instead of the whole ``display`` (:mod:`.patches`)
        self.patches = patches
        #: the client asked for the game's raw views (``view=1``): its frames keep ``view``
        #: (:func:`.protocol.client_frame`; protocol version 4 leaves it out otherwise)
        self.views = False
        #: the client asked for ``presence`` frames (``presence=1``): who is connected, as it
        #: changes (a snapshot's seats carry it either way)
        self.presence = False
        #: the display model of the last snapshot or delta queued for this connection
        self.shown: Display | None = None
        #: frames to send: a dict, or a frame already encoded (shared by connections)
        self.queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue(limit)
        self.overflowed = False
        #: the close code the connection is to be closed with (``None``: the usual)
        self.close_code: int | None = None

    @property
    def tr(self) -> Translator:
        """The translator of the connection's language."""
        return translator(self.language)

    def push(self, frame: dict[str, Any] | str) -> None:
        """Queue ``frame`` (a dict, or its text) for sending (from the event loop's thread).

        A snapshot's display model becomes :attr:`shown`, what the next patch starts from.
        """
        self._note_snapshot(frame)
        if isinstance(frame, dict):
            frame = protocol.client_frame(frame, self.views)
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.overflowed = True

    def _note_snapshot(self, frame: dict[str, Any] | str) -> None:
        """If ``frame`` is a snapshot, keep its display model as :attr:`shown`."""
        if type(frame) is dict and frame["type"] == "snapshot":
            shown = frame["display"]
            self.shown = shown if isinstance(shown, Display) else None

    def close(self, code: int | None = None) -> None:
        """Ask the writer to stop (and the connection to close with ``code``, if given)."""
        if code is not None:
            self.close_code = code
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.overflowed = True
