"""A forgetful Tracker memory forgets the fact it refreshed least recently."""

from __future__ import annotations

from campfire.games.tracker.bots import TrackerMemory


def test_capacity_forgets_the_least_recently_refreshed() -> None:
    memory = TrackerMemory(0, capacity=2)
    memory.remember(5, 11)
    memory.remember(7, 12)
    memory.remember(5, 11)  # refreshed: 7 is now the oldest
    memory.remember(9, 13)
    assert memory.known == {5: 11, 9: 13}
    assert list(memory.known) == [5, 9]
    # every change is logged for an encoder that keeps a row: the forgotten position too
    assert memory.touched == [5, 7, 5, 9, 7]


def test_a_perfect_memory_keeps_everything_in_refresh_order() -> None:
    memory = TrackerMemory(1)
    for pos, card in ((3, 1), (4, 2), (3, 1), (8, 5)):
        memory.remember(pos, card)
    assert list(memory.known.items()) == [(4, 2), (3, 1), (8, 5)]


def test_a_clone_keeps_the_order_and_is_independent() -> None:
    memory = TrackerMemory(0, capacity=2)
    memory.remember(1, 10)
    memory.remember(2, 20)
    copy = memory.clone()
    copy.remember(1, 10)
    copy.remember(3, 30)
    assert list(copy.known) == [1, 3]
    assert list(memory.known) == [1, 2]


def test_a_memory_that_remembers_nothing_stays_empty() -> None:
    memory = TrackerMemory(0, capacity=-1)
    memory.remember(1, 10)
    assert memory.known == {}
    assert memory.touched == []
