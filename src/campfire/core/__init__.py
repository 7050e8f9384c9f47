"""The game-agnostic kernel of Campfire.

It defines the contracts every game implements (:class:`Game`, :class:`State`,
:class:`Action`, :class:`Event`, :class:`Options`), the seeded generator, outcomes, records and
replay, and the registry of games. It imports nothing else of Campfire.
"""

from .actions import Action
from .agent import (
    ActionValue,
    Agent,
    AgentConfig,
    Assessment,
    Belief,
    NoisyConfig,
    Observation,
    RolloutPolicy,
)
from .errors import (
    CampfireError,
    ErrorText,
    IllegalActionError,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
    SeatError,
    SetupError,
    UnknownGameError,
)
from .events import Event, visible_events
from .game import ActionSpace, Game
from .options import OptionInfo, Options, option, parse_option_assignments
from .outcome import Outcome
from .records import Match, Player, Record, replay
from .registry import all_games, get, register
from .rng import GameRng
from .state import State

__all__ = [
    "Action",
    "ActionSpace",
    "ActionValue",
    "Agent",
    "AgentConfig",
    "Assessment",
    "Belief",
    "CampfireError",
    "ErrorText",
    "Event",
    "Game",
    "GameRng",
    "IllegalActionError",
    "Match",
    "NoisyConfig",
    "NotationError",
    "Observation",
    "OptionError",
    "OptionInfo",
    "Options",
    "Outcome",
    "Player",
    "PositionError",
    "Record",
    "RecordError",
    "RolloutPolicy",
    "SeatError",
    "SetupError",
    "State",
    "UnknownGameError",
    "all_games",
    "get",
    "option",
    "parse_option_assignments",
    "register",
    "replay",
    "visible_events",
]
