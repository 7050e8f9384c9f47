"""Tracker's kept display parts (board, piles, panels, choices): a kept part equals a fresh one."""

from __future__ import annotations

from campfire.games.tracker import present
from tests.games.present_cache import check_kept_displays


def test_kept_parts_are_those_made_afresh_for_every_seat_and_language() -> None:
    check_kept_displays("tracker", (2, 4, 6), 14, present._KEPT.clear)
