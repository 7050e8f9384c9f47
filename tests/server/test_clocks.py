"""The clock rules (campfire.server.clocks) with a fake clock: every time is passed in."""

from __future__ import annotations

import pytest

from campfire.core import OptionError
from campfire.server.clocks import TURN_MAX_SECONDS, TURN_MIN_SECONDS, Clocks, TimeControl


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


def test_a_turn_clock_gives_hours_or_days_for_each_move() -> None:
    control = TimeControl.read({"kind": "turn", "seconds": 3 * 86_400, "on_timeout": "bot"})
    assert (TURN_MIN_SECONDS, TURN_MAX_SECONDS) == (3_600.0, 14 * 86_400.0)
    assert control.to_json() == {"kind": "turn", "seconds": 259_200.0, "on_timeout": "bot"}
    assert TimeControl.read({"kind": "turn", "seconds": 14 * 86_400}).on_timeout == "random"
    clocks = Clocks(control, 2)
    clocks.sync([0], now=0.0)
    clocks.moved(0, now=86_400.0)
    clocks.sync([1], now=86_400.0)
    assert clocks.remaining(0, now=90_000.0) == 172_800.0  # stopped while seat 1 thinks
    clocks.moved(1, now=90_000.0)
    clocks.sync([0], now=90_000.0)
    assert clocks.remaining(0, now=90_000.0) == 259_200.0  # a full move's time again


def test_a_turn_read_back_runs_from_its_stored_deadline() -> None:
    clocks = Clocks(TimeControl.read({"kind": "turn", "seconds": 86_400}), 3)
    clocks.sync([1, 2], now=5.0)  # a table rebuilt: its clocks start at the load ...
    clocks.resume_running(1, 3_600.0, now=5.0)  # ... and run from what the deadline leaves
    clocks.resume_running(2, -60.0, now=5.0)  # a deadline that passed while no server ran
    clocks.resume_running(0, 10.0, now=5.0)  # not running: unchanged
    assert clocks.remaining(1, now=5.0) == 3_600.0 and clocks.remaining(0, now=5.0) == 86_400.0
    assert clocks.deadline() == (5.0, 2) and clocks.expired(now=5.0) == [2]


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
        ({"kind": "turn", "seconds": 60}, "from 3600 to 1.2096e[+]06"),
        ({"kind": "turn", "seconds": 15 * 86_400}, "from 3600 to 1.2096e[+]06"),
        ({"kind": "turn", "seconds": 3600, "increment": 5}, "belongs to a game clock"),
    ],
)
def test_a_bad_time_control_says_what_is_allowed(raw: object, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        TimeControl.read(raw)
