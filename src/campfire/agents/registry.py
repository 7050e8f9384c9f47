"""Agents by name: the generic ones and each game's own, with validated parameters.

An agent is named by a spec ``NAME[:key=value,...]``, e.g. ``random`` or
``ismcts:iterations=500,rollout=heuristic``; a difficulty level (``easy``, ``medium``, ``hard``)
stands for the game's agent spec for that level.

>>> from campfire import all_games
>>> game = all_games()[0]
>>> parse_agent_spec("ismcts:iterations=50,rollout=heuristic")
('ismcts', {'iterations': '50', 'rollout': 'heuristic'})
>>> agent = make_agent("ismcts:iterations=50", game, seat=0, players=2)
>>> agent.spec()
'ismcts:iterations=50'
>>> make_agent("genius", game, seat=0, players=2)
Traceback (most recent call last):
...
campfire.core.errors.OptionError: unknown agent 'genius' for ...; agents: ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campfire.core import Agent, ErrorText, Game, OptionError, Options

from .ismcts import ISMCTSAgent
from .random_agent import RandomAgent

__all__ = ["GENERIC_AGENTS", "LEVELS", "agent_types", "make_agent", "parse_agent_spec"]

GENERIC_AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "ismcts": ISMCTSAgent}
LEVELS = ("easy", "medium", "hard")


def parse_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``NAME:key=value,...`` into the name and its parameters."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if rest.strip():
        for item in rest.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise OptionError(
                    ErrorText(
                        "agent parameters are key=value (got {got} in {spec})",
                        got=repr(item),
                        spec=repr(spec),
                    )
                )
            params[key.strip()] = value.strip()
    if not name.strip():
        raise OptionError(
            ErrorText("an agent spec starts with the agent's name (got {got})", got=repr(spec))
        )
    return name.strip().lower(), params


def agent_types(game: Game[Any]) -> dict[str, type[Agent]]:
    """Every agent available for ``game``: the generic ones and the game's own."""
    types = dict(GENERIC_AGENTS)
    types.update(game.agents())
    return dict(sorted(types.items()))


def make_agent(
    spec: str,
    game: Game[Any],
    seat: int,
    players: int,
    options: Options | Mapping[str, Any] | None = None,
    seed: int = 0,
) -> Agent:
    """Create the agent named by ``spec`` for ``seat`` (raise :class:`OptionError` if unknown)."""
    name, params = parse_agent_spec(spec)
    if name in LEVELS:
        if params:
            raise OptionError(
                ErrorText("a difficulty level takes no parameters (got {got})", got=repr(spec))
            )
        name, params = parse_agent_spec(game.difficulty_levels(players)[name])
    types = agent_types(game)
    cls = types.get(name)
    if cls is None:
        raise OptionError(
            ErrorText(
                "unknown agent {name} for {game}; agents: {agents}; levels: {levels}",
                name=repr(name),
                game=game.title_text(),
                agents=", ".join(types),
                levels=", ".join(LEVELS),
            )
        )
    try:
        config = cls.config_type.from_mapping(params)
    except OptionError as exc:
        raise OptionError(
            ErrorText("agent {name}: {reason}", name=repr(name), reason=exc.text)
        ) from None
    return cls(game, seat, players, game.options(options), config, seed=seed)
