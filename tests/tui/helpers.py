"""Shared helpers of the terminal UI tests: drive an app to the end by pointing and typing only."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from textual.keys import _character_to_key
from textual.pilot import Pilot

from campfire.core import get
from campfire.core.actions import answer_name
from campfire.core.present import ActionChoice
from campfire.tui.app import CampfireApp, GameScreen, PlayConfig, PrivacyScreen, ScoreScreen
from campfire.tui.clock import FakeClock
from campfire.tui.modes import RealtimeClaimsMode
from campfire.tui.session import PlaySession, SeatSpec
from campfire.tui.widgets import Board

SIZE = (80, 24)
BIG = (120, 40)


def seats(*agents: str | None) -> list[SeatSpec]:
    """Seats for the given agents (``None``: a human)."""
    out = []
    for i, agent in enumerate(agents):
        out.append(SeatSpec(f"P{i + 1}" if agent is None else f"Bot {i + 1}", agent))
    return out


def make_app(
    game: str,
    players: list[SeatSpec],
    tmp_path: Path,
    options: dict[str, Any] | None = None,
    seed: int = 4,
    **kwargs: Any,
) -> tuple[CampfireApp, FakeClock]:
    """An app straight into a game, with a fake clock and no bot delay."""
    clock = FakeClock()
    kwargs.setdefault("bot_delay", 0)
    config = PlayConfig(
        game,
        players,
        options or {},
        seed=seed,
        save=tmp_path / "game.json",
        unfinished_dir=tmp_path / "unfinished",
        **kwargs,
    )
    return CampfireApp(config, clock=clock), clock


def make_late_app(
    game: str,
    players: list[SeatSpec],
    tmp_path: Path,
    until: Callable[[Mapping[str, Any]], bool],
    options: dict[str, Any] | None = None,
    seed: int = 4,
    **kwargs: Any,
) -> tuple[CampfireApp, FakeClock]:
    """An app that resumes the game ``make_app`` would start, from a later, legal position.

    The game is played on without a screen (the humans' moves random legal ones, the bots'
    their own) until ``until`` holds for the state's position (``State.to_position()["state"]``,
    the format of ``docs/notation/<game>.md``); the app then continues that unfinished game as
    ``campfire play --resume`` does. The rest is the test's to play, by pointing and typing:
    a pilot test reaches the end of a game in a fraction of the keys a whole game takes.
    """
    session = PlaySession(get(game), players, options or {}, seed=seed)
    rng = random.Random(seed)
    while not until(session.state.to_position()["state"]):
        assert not session.is_over(), f"the {game} game ended before the position sought"
        human = session.human_to_act()
        if human is None:
            assert session.bot_step() is not None
        else:
            session.play(human, rng.choice(session.legal_actions(human)))
    return make_app(game, [], tmp_path, options, seed, resume=session.record(), **kwargs)


def offered(screen: GameScreen) -> list[str]:
    """The notations of the choices on the game screen."""
    return [c.notation for c in screen.offered]


def keys_of(text: str) -> list[str]:
    """The key presses that type ``text``."""
    return [_character_to_key(ch) for ch in text]


async def type_text(pilot: Pilot[None], text: str, enter: bool = True) -> None:
    """Type ``text`` into the focused field (and press Enter)."""
    await pilot.press(*keys_of(text), *(["enter"] if enter else []))


async def point_at(pilot: Pilot[None], screen: GameScreen, target: str) -> None:
    """Move the pointer with the arrow keys onto ``target`` (a shortest way), then press Enter."""
    board = screen.query_one("#board", Board)
    ids = [s.id for s in board.spots]
    assert target in ids, (target, ids)
    start = screen.cursor if screen.cursor in ids else ids[0]
    paths: dict[str, list[str]] = {start: []}
    queue = deque([start])
    while queue and target not in paths:
        here = queue.popleft()
        for direction in ("up", "down", "left", "right"):
            there = board.move(here, direction)
            if there is not None and there not in paths:
                paths[there] = [*paths[here], direction]
                queue.append(there)
    await pilot.press(*paths[target])
    assert screen.cursor == target
    await pilot.press("enter")


async def choose(pilot: Pilot[None], screen: GameScreen, choice: ActionChoice, how: str) -> None:
    """Choose ``choice`` by pointing at its source and target (``point``) or typing its key."""
    if how == "point" and choice.target is not None:
        if choice.source is not None:
            await point_at(pilot, screen, choice.source)
        await point_at(pilot, screen, choice.target)
        if len(screen.offered) > 1 and choice in screen.offered:  # several moves there
            await type_text(pilot, choice.key or choice.notation)
        return
    await type_text(pilot, choice.key or choice.notation)


async def play_to_end(
    app: CampfireApp,
    clock: FakeClock,
    pilot: Pilot[None],
    limit: int = 6000,
    seed: int = 0,
    names: tuple[str, ...] = ("Ann", "Bob", "Cy"),
) -> dict[str, int]:
    """Point and type until the score screen shows; check every offered choice is legal.

    Turn-based games: a random offered choice, pointed at (arrows + Enter) or typed (its key
    + Enter), in turn. Real-time play: the clock moves on, the human answers a claim window by
    typing an answer's key. Hot seat: each player types a name on the first privacy screen.
    """
    rng = random.Random(seed)
    counts = {"moves": 0, "privacy": 0, "claims": 0, "pointed": 0, "typed": 0}
    typed_names = iter(names)
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, ScoreScreen):
            return counts
        if isinstance(screen, PrivacyScreen):
            counts["privacy"] += 1
            if screen.ask_name:
                await type_text(pilot, next(typed_names, ""), enter=False)
            await pilot.press("enter")
            continue
        assert isinstance(screen, GameScreen)
        if screen.seat is None or screen.thinking is not None:
            await pilot.pause()
            continue
        mode = screen.mode
        if isinstance(mode, RealtimeClaimsMode):
            legal = {answer_name(str(a)) for a in screen.session.legal_actions(screen.seat)}
            assert {c.notation for c in screen.offered} <= legal
            if mode.window_open() and screen.offered:
                if screen.seat in screen.session.state.seats_to_act():
                    choice = rng.choice(screen.offered)
                    clock.advance(rng.uniform(0, mode.settings.window / 2))
                    await type_text(pilot, choice.key or choice.notation, enter=False)
                    counts["claims"] += 1
                clock.advance(mode.settings.window)
                screen._tick()
                await pilot.pause()
                continue
            if not screen.offered or len(screen.session.legal_actions(screen.seat)) == 1:
                clock.advance(mode.settings.reveal_delay)
                screen._tick()
                await pilot.pause()
                continue
        else:
            legal = {str(a) for a in screen.session.legal_actions(screen.seat)}
            assert set(offered(screen)) <= legal
            if not screen.offered:
                clock.advance(10)  # a peek on show holds the screen in hot seat
                screen._tick()
                await pilot.pause()
                continue
        choice = rng.choice(screen.offered)
        how = "point" if counts["moves"] % 2 == 0 and choice.target else "type"
        await choose(pilot, screen, choice, how)
        counts["moves"] += 1
        counts["pointed" if how == "point" else "typed"] += 1
    raise AssertionError("the game did not end")
