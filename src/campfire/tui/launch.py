"""From command-line arguments to a running app (``campfire play``, ``replay --watch``).

Everything is checked before the terminal is taken over, so bad input ends with a one-line
message (a :class:`~campfire.core.CampfireError`), never a half-drawn screen.

>>> from campfire.core import all_games
>>> game = all_games()[0]
>>> config = play_config(game.name, players=game.min_players, opponents=["hard"])
>>> [s.agent for s in config.seats] == [None] + ["hard"] * (game.min_players - 1)
True
>>> play_config(game.name, players=99)
Traceback (most recent call last):
...
campfire.core.errors.OptionError: ... is played by ... players (got 99)
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from campfire.agents import make_agent
from campfire.core import (
    CampfireError,
    ErrorText,
    OptionError,
    Record,
    get,
    parse_option_assignments,
    replay,
)
from campfire.i18n import _

from .app import CampfireApp, PlayConfig, WatchApp, check_seats, game_options
from .session import PlaySession, newest_unfinished, parse_opponents

__all__ = ["play_config", "resume_config", "run_play", "run_watch"]


def play_config(
    game: str | None,
    *,
    players: int | None = None,
    opponents: Sequence[str] = (),
    options: Sequence[str] = (),
    seed: int | None = None,
    save: str | Path | None = None,
    protect_me: bool = False,
    learning: bool = False,
) -> PlayConfig:
    """Check the arguments of ``campfire play`` and build the configuration.

    Without ``game`` the configuration has no seats: the app opens its start screen (keeping
    ``seed`` and ``save``). Raises :class:`CampfireError` with a message for bad input.
    """
    save_path = Path(save) if save is not None else None
    if save_path is not None and save_path.is_dir():
        raise CampfireError(
            _("--save wants a file name, and {path} is a folder").format(path=save_path)
        )
    if game is None:
        if players is not None or opponents or options:
            raise CampfireError(_("--players, --opponents and --option need a GAME"))
        return PlayConfig("", [], seed=seed, save=save_path)
    g = get(game)
    count = players if players is not None else max(g.min_players, len(opponents) + 1)
    g.check_players(count)
    seats = parse_opponents(opponents, count)
    opts = game_options(g, parse_option_assignments(options))
    for i, spec in enumerate(seats):
        if spec.agent is not None:
            try:
                make_agent(spec.agent, g, i, count, opts)
            except OptionError as exc:
                raise OptionError(ErrorText("--opponents: {reason}", reason=exc.text)) from None
    check_seats(g, seats, opts)
    return PlayConfig(
        g.name,
        seats,
        opts,
        seed=seed,
        save=save_path,
        protect_me=protect_me,
        learning=learning,
    )


def resume_config(
    path: str | Path | None = None,
    *,
    save: str | Path | None = None,
    directory: Path | None = None,
) -> PlayConfig:
    """The configuration that continues an unfinished game (``path``, or the newest saved).

    The record is read and replayed before the terminal is taken over: a bad or finished record
    ends with a one-line :class:`CampfireError`.
    """
    source = Path(path) if path is not None else newest_unfinished(directory)
    record = Record.load(source)
    session = PlaySession.resume(record)  # checks that it replays and is unfinished
    return PlayConfig(
        session.game.name,
        session.seats,
        record.options,
        seed=record.seed,
        save=Path(save) if save is not None else None,
        resume=record,
        resumed_from=source,
    )


def run_play(config: PlayConfig) -> int:  # pragma: no cover - takes over the terminal
    """Run ``campfire play`` with ``config``; return the exit status.

    The status is 0 after quitting, 128 + the signal number after ``SIGHUP`` or ``SIGTERM``, and
    129 when the terminal went away (:mod:`campfire.tui.terminal`). When an unfinished game was
    saved, a line on standard error says where and how to continue it (the terminal is still
    there after a normal quit).
    """
    app = CampfireApp(config)
    app.run()
    code = app.return_code or 0
    if app.unfinished is not None and code == 0:
        print(saved_note(app.unfinished), file=sys.stderr)
    return code


def saved_note(path: Path) -> str:
    """The line that tells a player where an unfinished game went and how to continue it.

    >>> print(saved_note(Path("/data/unfinished/pile-1.json")))  # doctest: +NORMALIZE_WHITESPACE
    Your unfinished game is saved in /data/unfinished/pile-1.json; continue it with
    'campfire play --resume'.
    """
    return _(
        "Your unfinished game is saved in {path}; continue it with 'campfire play --resume'."
    ).format(path=path)


def run_watch(path: str) -> int:  # pragma: no cover - takes over the terminal
    """Verify the record at ``path`` and step through it; return the exit status."""
    record = Record.load(path)
    replay(record)  # raises RecordError with the first bad action
    app = WatchApp(record)
    app.run()
    return app.return_code or 0
