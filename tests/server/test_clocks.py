"""The clock rules (campfire.server.clocks) with a fake clock: every time is passed in."""

from __future__ import annotations

import pytest

from campfire.core import OptionError
from campfire.server.clocks import Clocks, TimeControl


def test_no_time_control_runs_no_clock() -> None:
    clocks = Clocks(TimeControl.read(None), 2)
    clocks.sync([0], now=0.0)
    assert clocks.deadline() is None and clocks.expired(now=1e6) == []
    assert clocks.to_json(now=0.0) is None


def test_a_per_move_clock_starts_afresh_every_time_the_seat_is_to_act() -> None:
    clocks = Clocks(TimeControl.read({"kind": "move", "seconds": 10}), 2)
    clocks.sync([0], now=0.0)
    assert clocks.deadline() == (10.0, 0)
    clocks.moved(0, now=8.0)
    clocks.sync([1], now=8.0)
    assert clocks.remaining(0, now=50.0) == 2.0  # stopped: it does not run while seat 1 thinks
    clocks.moved(1, now=9.0)
    clocks.sync([0], now=9.0)
    assert clocks.remaining(0, now=9.0) == 10.0  # a full move's time again
    assert clocks.expired(now=18.9) == [] and clocks.expired(now=19.0) == [0]


def test_a_game_clock_adds_the_increment_after_each_move() -> None:
    clocks = Clocks(TimeControl.read({"kind": "game", "seconds": 60, "increment": 2}), 2)
    clocks.sync([0], now=0.0)
    clocks.moved(0, now=10.0)
    clocks.sync([1], now=10.0)
    assert clocks.remaining(0, now=10.0) == 52.0
    clocks.moved(1, now=70.0)  # seat 1 used all its 60 s: 0 + 2
    assert clocks.remaining(1, now=70.0) == 2.0
    assert clocks.to_json(now=70.0) == {
        "control": {"kind": "game", "seconds": 60.0, "increment": 2.0, "on_timeout": "random"},
        "remaining_ms": [52000, 2000],
        "running": [],
    }


def test_simultaneous_seats_run_at_once_and_the_earliest_deadline_comes_first() -> None:
    clocks = Clocks(TimeControl.read({"kind": "game", "seconds": 30}), 3, [30.0, 5.0, 20.0])
    clocks.sync([0, 1, 2], now=100.0)
    assert clocks.deadline() == (105.0, 1)
    assert clocks.expired(now=125.0) == [1, 2]
    clocks.timed_out(1, now=125.0)
    assert clocks.remaining(1, now=200.0) == 0.0 and 1 not in clocks.running
    clocks.sync([0], now=126.0)  # seat 2 no longer to act: its clock stops, nothing is added
    assert clocks.remaining(2, now=300.0) == 0.0 and clocks.running == {0: 100.0}


def test_a_stopped_clock_charges_only_the_time_it_ran() -> None:
    clocks = Clocks(TimeControl.read({"kind": "game", "seconds": 100, "increment": 1}), 2)
    clocks.sync([], now=0.0)
    clocks.moved(0, now=50.0)  # a seat whose clock did not run gets no increment
    assert clocks.remaining(0, now=50.0) == 100.0


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("fast", "an object"),
        ({"kind": "fischer"}, '"kind" is one of none, move, game'),
        ({"kind": "move"}, '"seconds" is a number of seconds'),
        ({"kind": "move", "seconds": 0}, "from 0.1"),
        ({"kind": "move", "seconds": True}, '"seconds"'),
        ({"kind": "move", "seconds": 5, "increment": 1}, "belongs to a game clock"),
        ({"kind": "game", "seconds": 5, "on_timeout": "cry"}, "bot, random, loss"),
        ({"kind": "none", "seconds": 5}, "takes no other field"),
        ({"kind": "game", "seconds": 5, "bonus": 1}, "got bonus"),
    ],
)
def test_a_bad_time_control_says_what_is_allowed(raw: object, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        TimeControl.read(raw)
