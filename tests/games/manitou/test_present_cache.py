"""Big Manitou's kept display parts (grounds, tiles, panels, choices): kept equals fresh."""

from __future__ import annotations

from campfire.core import get
from campfire.games.manitou import present
from tests.games.present_cache import check_kept_displays


def test_kept_parts_are_those_made_afresh_for_every_seat_and_language() -> None:
    check_kept_displays("manitou", (2, 3, 5), 21, present._KEPT.clear)


def test_a_seat_and_the_spectator_share_the_grounds_and_the_others_panels() -> None:
    manitou = get("manitou")
    presenter = manitou.presenter()
    state = manitou.new_game(3, seed=4)
    names = ["A", "B", "C"]
    seat = next(iter(state.seats_to_act()))
    mine = presenter.display(state.view(seat), state.legal_actions(seat), names)
    watched = presenter.display(state.view(None), [], names)
    grounds = [z for z in mine.zones if z.id.startswith("g")]
    assert len(grounds) == 6  # tiles and cards of the three grounds
    for z in grounds:  # the same objects: a patch skips them by identity
        assert any(z is w for w in watched.zones), z.id
    others = [p for p in mine.players if not p.you]
    assert all(any(p is q for q in watched.players) for p in others)
