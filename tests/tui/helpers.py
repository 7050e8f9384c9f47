"""Shared helpers of the terminal UI tests: drive an app through its keys to the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import OptionList

from campfire.tui.app import CampfireApp, GameScreen, PlayConfig, PrivacyScreen, ScoreScreen
from campfire.tui.clock import FakeClock
from campfire.tui.session import SeatSpec

SIZE = (80, 24)


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
    config = PlayConfig(
        game, players, options or {}, seed=seed, save=tmp_path / "game.json", bot_delay=0, **kwargs
    )
    return CampfireApp(config, clock=clock), clock


def offered(screen: GameScreen) -> list[str]:
    """The labels of the choices on the game screen."""
    options = screen.query_one("#actions", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def play_to_end(
    app: CampfireApp, clock: FakeClock, pilot: Pilot[None], limit: int = 5000
) -> dict[str, int]:
    """Press keys until the score screen shows; check every offered choice is legal.

    Turn-based games: the first choice (key ``1``). Real-time Apache: the clock moves to the
    reveal, the human claims with a key (``c``/``m``/``w``/``h`` in turn) or passes, and
    the clock moves past the window. Hot seat: Enter on each privacy screen.
    """
    counts = {"moves": 0, "privacy": 0, "claims": 0}
    keys = "cmwh"
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, ScoreScreen):
            return counts
        if isinstance(screen, PrivacyScreen):
            counts["privacy"] += 1
            await pilot.press("enter")
            continue
        assert isinstance(screen, GameScreen)
        if screen.seat is not None:
            legal = [str(a) for a in screen.session.legal_actions(screen.seat)]
            for label in offered(screen):
                assert label.split(". ", 1)[-1].strip() in legal
        if screen.realtime is not None:
            clock.advance(screen.config.reveal_delay)
            screen._tick()
            if screen.realtime.phase() == "claim":
                await pilot.press(keys[counts["claims"] % 4])
                counts["claims"] += 1
                clock.advance(screen.config.window)
                screen._tick()
            await pilot.pause()
            if screen.realtime.phase() != "choose":
                continue
        await pilot.press("1")
        counts["moves"] += 1
    raise AssertionError("the game did not end")
