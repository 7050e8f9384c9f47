"""Game-agnostic agents (random, ISMCTS) and the agent registry.

The agent protocol itself (:class:`campfire.core.Agent`, :class:`campfire.core.Observation`)
lives in the core, so that each game's heuristic bot can implement it inside its own package.
"""

from .ismcts import ISMCTSAgent, ISMCTSConfig, reward_vector
from .random_agent import RandomAgent
from .registry import GENERIC_AGENTS, LEVELS, agent_types, make_agent, parse_agent_spec

__all__ = [
    "GENERIC_AGENTS",
    "LEVELS",
    "ISMCTSAgent",
    "ISMCTSConfig",
    "RandomAgent",
    "agent_types",
    "make_agent",
    "parse_agent_spec",
    "reward_vector",
]
