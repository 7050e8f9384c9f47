"""Helpers for Apache tests: build positions with explicit tables, play windows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from campfire.agents import make_agent
from campfire.core import Agent, Event, Outcome
from campfire.core.table import Table
from campfire.games.apache import GAME, ApacheState
from campfire.games.apache.cards import PRAIRIE_DECK, card_name, parse_card


def position(
    players: int,
    table: Sequence[str],
    *,
    piles: Sequence[Sequence[str]] | None = None,
    reveal: Sequence[str] = (),
    revealer: int = 0,
    colours: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    deck_left: int | None = None,
) -> ApacheState:
    """A state in the reveal phase: ``table`` face up, ``piles`` won, ``reveal`` to come next.

    The other prairie cards stay face down after ``reveal`` (or, with ``deck_left``, that many
    face-down cards remain and the rest is out of the game).
    """
    colours = list(colours or ["red", "yellow", "purple", "green", "blue"][:players])
    piles = [list(p) for p in (piles or [[] for _ in range(players)])]
    used = [*table, *(k for p in piles for k in p), *reveal]
    rest = list(PRAIRIE_DECK)
    for name in used:
        rest.remove(parse_card(name))
    deck = [*reveal, *(card_name(k) for k in rest)]
    discard: list[str] = []
    if deck_left is not None:
        discard = deck[deck_left:]
        deck = deck[:deck_left]
    base = GAME.new_game(players, options, setup={"colours": colours, "deck": _full_deck()})
    data = base.to_position()
    data["state"].update(
        {
            "deck": deck,
            "table": list(table),
            "piles": piles,
            "discard": discard,
            "revealer": revealer,
            "window": len(PRAIRIE_DECK) - len(deck),  # one window per card revealed
        }
    )
    return GAME.state_from_position(data)


def _full_deck() -> list[str]:
    return [card_name(k) for k in PRAIRIE_DECK]


def play(state: ApacheState, *moves: tuple[int, str]) -> list[Event]:
    """Apply ``(seat, notation)`` moves in order and return all their events."""
    events: list[Event] = []
    for seat, text in moves:
        events.extend(state.apply(seat, text))
    return events


def poll(state: ApacheState, claims: Mapping[int, str]) -> list[Event]:
    """Answer the open poll: ``claims`` maps seats to a claim text, every other seat passes."""
    moves = [(s, claims.get(s, "pass")) for s in range(state.num_players)]
    return play(state, *moves)


def names(cards: Sequence[int]) -> list[str]:
    return [card_name(k) for k in cards]


def resolved(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == "claim_resolved"]


def play_bots(
    specs: Sequence[str], seed: int, options: dict[str, Any] | None = None
) -> tuple[list[str], Outcome, list[dict[str, Any]]]:
    """Play a whole game between the agents ``specs`` (one a seat) on a seeded table.

    Returns the action log (``seat:action``), the outcome and the data of every
    ``claim_resolved`` event.
    """
    players = len(specs)
    agents: list[Agent | None] = [
        make_agent(sp, GAME, s, players, options, seed=seed * 10 + s) for s, sp in enumerate(specs)
    ]
    table = Table(GAME, players, options, seed=seed, agents=agents)
    results: list[dict[str, Any]] = []
    table.subscribe(None, lambda events: results.extend(resolved(events)))
    table.run()
    log = [f"{seat}:{action}" for seat, action in table.match.actions]
    return log, table.state.outcome(), results
