"""The ISMCTS agent's options, in a module that is never compiled.

:mod:`campfire.agents.ismcts` may be compiled (``docs/compiled.md``); a dataclass whose fields are
declared with :func:`campfire.core.option` may not (mypyc checks each field's class-level
default against its type, and ``option`` gives a ``dataclasses.Field``), so the options live
here, interpreted, and are imported from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from campfire.core import AgentConfig, ErrorText, option

__all__ = ["DEFAULT_ITERATIONS", "MAX_ITERATIONS", "MAX_SECONDS", "ISMCTSConfig"]

#: the most iterations and seconds a move may be given (a budget a user controls is bounded)
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 600.0
#: the iterations of a move when neither ``iterations`` nor ``seconds`` is given
DEFAULT_ITERATIONS = 200


@dataclass(frozen=True)
class ISMCTSConfig(AgentConfig):
    """Parameters of the ISMCTS agent."""

    iterations: int = option(
        DEFAULT_ITERATIONS,
        minimum=1,
        maximum=MAX_ITERATIONS,
        help="search iterations per move (when seconds is 0)",
    )
    seconds: float = option(
        0.0, minimum=0, maximum=MAX_SECONDS, help="time per move in seconds (0: use iterations)"
    )
    exploration: float = option(0.7, minimum=0, maximum=100, help="UCT exploration constant")
    rollout: str = option(
        "auto",
        choices=("auto", "random", "policy", "heuristic"),
        help=(
            "who plays the simulated games: the game's fast rollout policy (policy), the "
            "game's heuristic bot (heuristic), uniformly random moves (random); auto = policy "
            "if the game has one, else random. The game's policy, if any, still prunes wide "
            "choices and scores rollouts cut at its horizon"
        ),
    )
    reward: str = option(
        "auto",
        choices=("auto", "win", "rank", "margin", "mixed"),
        help=(
            "what a simulated game is worth: win share, rank, score margin, or a mix; auto = "
            "the game's choice (its rollout policy's reward), else mixed"
        ),
    )
    max_rollout: int = option(
        10_000,
        minimum=1,
        maximum=1_000_000,
        help="most actions in one rollout; then the game's estimate scores it",
    )
    memory: str = option(
        "perfect", help="how well the seat remembers (games with memory): perfect, none, N, N/D"
    )

    def validate(self) -> None:
        """A budget is a number of iterations or a time, not both.

        The bounds of each option are checked before (``iterations=0`` is refused there); here,
        ``seconds`` together with an ``iterations`` other than the default is refused, since a
        time budget ignores the iterations.
        """
        from campfire.core import OptionError

        if self.seconds > 0 and self.iterations != DEFAULT_ITERATIONS:
            raise OptionError(
                ErrorText(
                    "give the search either iterations or seconds, not both (iterations="
                    "{iterations}, seconds={seconds}): a time budget ignores the iterations",
                    iterations=self.iterations,
                    seconds=self.seconds,
                )
            )
