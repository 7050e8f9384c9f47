"""Dudab's kept card faces: a display built from kept faces equals one made afresh."""

from __future__ import annotations

from campfire.games.dudab import present
from tests.games.present_cache import check_kept_displays


def test_kept_faces_are_those_made_afresh_for_every_seat_and_language() -> None:
    check_kept_displays("dudab", (2, 3), 6, present._FACES_KEPT.clear)
