"""The game spec: the entry point to one game's engine.

A :class:`Game` names a game, its player range and options type, and creates states from a seed
or from an explicit initial setup (so a physical deal can be typed in).
"""

from __future__ import annotations

import random
import secrets
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .actions import Action, hand_built
from .agent import Agent, Belief, RolloutPolicy
from .errors import (
    CampfireError,
    ErrorText,
    NotationError,
    OptionError,
    PositionError,
    SetupError,
)
from .events import Event
from .options import Options
from .present import GenericPresenter, Presenter
from .rng import GameRng
from .state import State
from .validate import check_int_digits, check_seed, short_repr

if TYPE_CHECKING:  # numpy is needed only by the adapters, which import the encoders
    from .encoding import Encoder

__all__ = ["ActionSpace", "Game"]

S = TypeVar("S", bound=State)

#: the top-level fields of a position (``docs/notation/<game>.md``, "Position"): its header and
#: the game's state
POSITION_FIELDS = ("game", "version", "players", "options", "state")


@dataclass(frozen=True)
class ActionSpace:
    """A game's action notation and fixed integer index space (the same for every player count).

    ``parse`` reads a notation, ``size`` is the number of actions, ``index`` and ``from_index``
    map between actions and their indices; ``canonical`` maps an action object (one built by
    hand, say) to the game's own equal action, refusing one whose fields disagree with it
    (without it, the action of its index is taken and compared field by field). Each raises a
    ``NotationError`` on bad input.
    """

    parse: Callable[[str], Action]
    size: int
    index: Callable[[Action], int]
    from_index: Callable[[int], Action]
    canonical: Callable[[Action], Action] | None = None

    @classmethod
    def from_module(cls, module: ModuleType) -> ActionSpace:
        """The space defined by a game's actions module.

        The module defines, by convention, ``parse_action``, ``NUM_ACTIONS``, ``action_index``
        and ``action_from_index``, and may define ``canonical_action``.

        >>> import types
        >>> from dataclasses import dataclass
        >>> @dataclass(frozen=True)
        ... class Take(Action):
        ...     count: int
        ...
        ...     def notation(self) -> str:
        ...         return f"take {self.count}"
        >>> actions = types.ModuleType("pile_actions")  # a game's actions module, in short
        >>> actions.parse_action = lambda text: Take(int(text.split()[1]))
        >>> actions.NUM_ACTIONS = 2
        >>> actions.action_index = lambda action: action.count - 1
        >>> actions.action_from_index = lambda index: Take(index + 1)
        >>> space = ActionSpace.from_module(actions)
        >>> space.size, space.index(space.parse("take 2")), space.from_index(0)
        (2, 1, Take(count=1))
        """
        return cls(
            module.parse_action,
            module.NUM_ACTIONS,
            module.action_index,
            module.action_from_index,
            getattr(module, "canonical_action", None),
        )


class Game(ABC, Generic[S]):
    """One game: its name, player range, options and constructors.

    Subclasses set the class attributes and implement the abstract methods; the generic
    machinery (options validation, seeding, positions) lives here.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options_type: type[Options]
    #: A bound on the number of actions of a game played by random agents; the conformance
    #: suite checks that random playouts end within it.
    playout_bound: int = 100_000
    #: How people play the game in a user interface, best first, as data (user interfaces know
    #: these names, never a game's): ``"turns"`` (take turns; simultaneous steps answered one
    #: seat after another), ``"timed-peek"`` (turns, and a card a seat is shown privately stays
    #: on its screen for a few seconds only), ``"realtime-claims"`` (simultaneous steps are
    #: timed windows answered against the clock, forced single moves play themselves).
    play_modes: tuple[str, ...] = ("turns",)
    #: Whether several seats may act at once (a *simultaneous step*: every seat answers a poll,
    #: every seat picks a card in secret). A game that declares none has at most one seat to
    #: act at every step (the conformance suite checks it); the adapters and the terminal app
    #: take simultaneous steps one seat after another.
    simultaneous_steps: bool = False
    #: The aids a user interface may offer a person in this game, as data (interfaces know
    #: these names, never a game's): ``"protect-me"`` (each answer of a simultaneous step that
    #: would be penalised is marked ``False`` in the seat's view under ``protect_me``, and the
    #: interface refuses it), ``"learning"`` (with ``timed-peek``: the positions the seat was
    #: shown privately stay marked on its screen).
    assists: tuple[str, ...] = ()

    # ----- options and players --------------------------------------------------------------

    def options(self, values: Options | Mapping[str, Any] | None = None) -> Options:
        """Validate ``values`` (an options object, a mapping, or ``None`` for the defaults)."""
        if isinstance(values, Options):
            if not isinstance(values, self.options_type):
                raise OptionError(
                    ErrorText(
                        "{kind} are not options of {title}; use {expected}",
                        kind=type(values).__name__,
                        title=self.title_text(),
                        expected=self.options_type.__name__,
                    )
                )
            return values
        return self.options_type.from_mapping(values)  # refuses what is no mapping

    def title_text(self) -> ErrorText:
        """The title as a word of an error message (translated at the edge: ``<name>.title``)."""
        context = f"{self.name}.title"
        return ErrorText(self.title, context=context)

    def check_players(self, players: int) -> None:
        """Raise :class:`OptionError` unless ``players`` is in the game's player range."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(
                ErrorText(
                    "the number of players must be an integer (got {players})",
                    players=short_repr(players),
                )
            )
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                ErrorText(
                    "{title} is played by {min_players}–{max_players} players (got {players})",
                    title=self.title_text(),
                    min_players=self.min_players,
                    max_players=self.max_players,
                    players=players,
                )
            )

    # ----- creating states -----------------------------------------------------------------

    def new_game(
        self,
        players: int,
        options: Options | Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> S:
        """Create the initial state from a ``seed`` or an explicit ``setup``.

        With neither, a random seed is drawn. The setup is drawn from ``GameRng(seed)``; the
        randomness after the setup comes from :meth:`play_rng` of the seed (default 0 with an
        explicit setup). A seed is an ``int`` from 0 to 2**63 - 1 (anything else raises
        :class:`OptionError`).
        """
        self.check_players(players)
        opts = self.options(options)
        if seed is not None:
            seed = check_seed(seed)
        if setup is None:
            if seed is None:
                seed = secrets.randbits(63)
            return self.random_state(players, opts, GameRng(seed), self.play_rng(seed))
        if not isinstance(setup, Mapping):
            raise SetupError(
                ErrorText("a setup is a JSON object (got {kind})", kind=type(setup).__name__)
            )
        # integers as a record's: at most 40 digits (so every message can show them)
        check_int_digits(setup, ErrorText("the setup"), error=SetupError)
        return self.from_setup(players, opts, setup, self.play_rng(0 if seed is None else seed))

    @staticmethod
    def play_rng(seed: int) -> GameRng:
        """The generator for the randomness after the setup, derived from the game's seed.

        The setup is drawn from ``GameRng(seed)``; play uses this separate stream, so a game from
        a seed and the same setup given explicitly with that seed continue identically.
        """
        return GameRng(f"campfire-play/{seed}")

    @abstractmethod
    def random_setup(self, players: int, options: Options, rng: random.Random) -> dict[str, Any]:
        """Draw a random initial setup (a JSON-ready dict) from ``rng``."""

    def random_state(self, players: int, options: Options, rng: random.Random, play: GameRng) -> S:
        """The initial state of a setup drawn from ``rng``; ``play`` is the generator for play.

        :meth:`new_game` from a seed starts here. By default it is
        ``from_setup(players, options, random_setup(players, options, rng), play)``. A game may
        build that very state directly, without writing the setup out as JSON and reading it
        back: every random playout and simulated game starts with a setup, and the round trip
        (names written, read back and checked) can cost as much as a hundred actions. An
        override must make exactly the default's state, generators included
        (``tests/core/test_random_state.py`` compares them for every game over many seeds).
        """
        return self.from_setup(players, options, self.random_setup(players, options, rng), play)

    @abstractmethod
    def from_setup(
        self, players: int, options: Options, setup: Mapping[str, Any], rng: GameRng
    ) -> S:
        """Build the initial state from an explicit setup (raise :class:`SetupError`)."""

    @abstractmethod
    def state_from_position(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state from :meth:`State.to_position` output (raise :class:`PositionError`)."""

    # ----- actions -------------------------------------------------------------------------

    #: the game's notation and fixed index space, when they do not depend on the player count
    #: (a game whose space does overrides the four methods below instead)
    action_space: ActionSpace | None = None

    def _action_space(self) -> ActionSpace:
        if self.action_space is None:
            raise NotImplementedError(f"{self.title} defines no action space")
        return self.action_space

    def parse_action(self, text: str) -> Action:
        """Parse an action's notation (raise :class:`~campfire.core.errors.NotationError`)."""
        return self._action_space().parse(text)

    def canonical_action(self, action: Action | str) -> Action:
        """The game's own action for ``action``: its notation read, or an action object matched.

        This is what the engine applies and what :class:`~campfire.core.records.Match` records.
        An action object built by hand must agree with the game's action it matches in every
        field, with the same types (never a ``float`` or a ``bool`` for an ``int``); otherwise,
        or for anything that is no action of the game, it raises
        :class:`~campfire.core.errors.NotationError`.

        >>> from campfire import all_games
        >>> game = all_games()[0]
        >>> state = game.new_game(2, seed=1)
        >>> action = state.legal_actions(state.seats_to_act()[0])[0]
        >>> game.canonical_action(str(action)) == action == game.canonical_action(action)
        True
        >>> game.canonical_action(object())
        Traceback (most recent call last):
        ...
        campfire.core.errors.NotationError: ...
        """
        if isinstance(action, str):
            return self.parse_action(action)
        if not isinstance(action, Action):  # (a compiled game would refuse it with a TypeError)
            raise NotationError(
                ErrorText(
                    "{got} is no {title} action: give one of its actions or its notation",
                    got=short_repr(action),
                    title=self.title_text(),
                )
            )
        space = self.action_space
        if space is None:  # a space per player count: the game's apply maps the action itself
            return action
        if space.canonical is not None:
            return space.canonical(action)
        own = space.from_index(space.index(action))
        return own if own is action else hand_built(action, own, self.title_text())

    def num_distinct_actions(self, players: int) -> int:
        """The size of the fixed integer action index space for ``players`` players."""
        return self._action_space().size

    def action_index(self, action: Action, players: int) -> int:
        """The index of ``action`` in the fixed index space."""
        return self._action_space().index(action)

    def action_from_index(self, index: int, players: int) -> Action:
        """The action with index ``index`` (raise :class:`ValueError` if out of range)."""
        return self._action_space().from_index(index)

    # ----- computer players ----------------------------------------------------------------

    def new_belief(
        self, seat: int, players: int, options: Options, memory: str = "perfect", seed: int = 0
    ) -> Belief:
        """A fresh memory for ``seat`` (default: remembers nothing beyond the view).

        ``memory`` describes how well the seat remembers, for games where memory matters:
        ``perfect``, ``none``, or ``CAPACITY`` / ``CAPACITY/DECAY`` (for example ``8/0.05``: at
        most 8 facts, each forgotten with probability 0.05 at every step of another player).
        Games without memory ignore it.
        """
        return Belief(seat)

    def agents(self) -> dict[str, type[Agent]]:
        """The game's own agents by name (its heuristic bot), in addition to the generic ones."""
        return {}

    def rollout_policy(self, seat: int, belief: Belief) -> RolloutPolicy | None:
        """A fresh fast policy for one simulated game of a search by ``seat``, or ``None``.

        ``belief`` is the searching seat's memory. Without a policy, rollouts play randomly.
        """
        return None

    def difficulty_levels(self, players: int) -> dict[str, str]:
        """Agent specs for the difficulty levels ``easy``, ``medium`` and ``hard`` at ``players``.

        A level may differ with the player count (a search whose model costs more with more
        players runs fewer iterations, so that every level keeps to its time budget). The
        default uses the game's heuristic bot (or the random agent if it has none) and ISMCTS,
        the same at every player count.
        """
        return {
            "easy": "heuristic" if "heuristic" in self.agents() else "random",
            "medium": "ismcts:iterations=300",
            "hard": "ismcts:iterations=1500",
        }

    def undoable(self, seat: int, action: Action, events: Sequence[Event]) -> bool:
        """Whether a person may take back ``action`` of ``seat`` (with its ``events``).

        :meth:`campfire.core.table.Table.can_undo` already refuses to take back anything past
        another seat's action. By default an action is refused when any of its events was private
        to some seats: information was revealed (a peek, a draw). A game whose private events
        can reveal nothing new (a secret choice from the seat's own cards) says so here.
        """
        return all(event.to is None for event in events)

    def to_json(self) -> dict[str, Any]:
        """The game's name, title, player range and options with defaults, JSON-ready.

        What ``campfire games --json`` prints and the server's ``GET /api/games`` answers.

        >>> from campfire import all_games
        >>> game = all_games()[0]
        >>> info = game.to_json()
        >>> sorted(info), info["name"] == game.name
        (['max_players', 'min_players', 'name', 'options', 'title'], True)
        >>> sorted(info["options"][0])
        ['choices', 'default', 'help', 'name']
        """
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [
                {
                    "name": i.name,
                    "default": i.default,
                    "choices": list(i.choices) if i.choices is not None else None,
                    "help": i.help,
                }
                for i in self.options_type.infos()
            ],
        }

    def presenter(self) -> Presenter:
        """How the game looks to a person (``campfire.core.present``); by default, plainly.

        Games override it with their own presenter (``games/<name>/present.py``).
        """
        return GenericPresenter(self)

    # ----- research adapters ---------------------------------------------------------------

    def encoder(self, players: int) -> Encoder:
        """The observation encoder of the game for ``players`` players (for the adapters).

        A game brings its own (``<package>/encoder.py``, a subclass of
        :class:`campfire.core.encoding.Encoder`, imported by this method, so that numpy is
        needed only by those who encode). By default a game has none: ``NotImplementedError``.
        """
        raise NotImplementedError(f"{self.title} has no observation encoder")

    def move_cap(self, players: int) -> int:
        """The most actions a game of ``players`` players may last in a learning environment.

        The adapters (``campfire.adapters``) end a game that reaches it as a draw. By default
        twice :attr:`playout_bound`; a game with a bound from its rules, or with no bound at all
        (a policy that never ends a game must still be cut), says so here.
        """
        return 2 * self.playout_bound

    def public_scores(self, view: Mapping[str, Any]) -> list[float] | None:
        """The scores every seat can see during the game, one per seat, higher is better.

        ``view`` is the spectator's view. The adapters shape rewards with them
        (``Session.score_potential``); ``None`` (the default): the game shows none before its
        end.
        """
        return None

    # ----- documentation -------------------------------------------------------------------

    def package_files(self) -> Traversable:
        """The files of the game's package: the package of the module that defines its class.

        A game carries its resources there (``docs/writing-a-game.md``): its rules documents,
        ``rules/<name>.md`` (English) and ``rules/<name>.<lang>.md``, and its message catalogs,
        ``locale/<name>.pot`` and ``locale/<lang>/LC_MESSAGES/<name>.po``.
        """
        module = sys.modules[type(self).__module__]
        package = module.__spec__.parent if module.__spec__ is not None else module.__package__
        return resources.files(package or module.__name__)

    def rules_text(self) -> str:
        """The game's complete rules, as Markdown: ``rules/<name>.md`` in the game's package.

        The rules documents are package data of the game (:meth:`package_files`); in the source
        tree ``docs/rules`` links to them.

        >>> from campfire import all_games
        >>> all(game.rules_text().startswith("# ") for game in all_games())
        True
        """
        document = self.package_files().joinpath("rules").joinpath(f"{self.name}.md")
        return document.read_text(encoding="utf-8")

    def rules_summary(self) -> str:
        """The same as :meth:`rules_text` (the older name, kept for callers)."""
        return self.rules_text()

    # ----- helpers for subclasses ----------------------------------------------------------

    def _position_header(self, state: State) -> dict[str, Any]:
        return {
            "game": self.name,
            "version": 1,
            "players": state.num_players,
            "options": state.options.to_dict(),
        }

    def _read_position_header(self, data: Mapping[str, Any]) -> tuple[int, Options]:
        """Check a position's header and return its player count and options."""
        if not isinstance(data, Mapping):
            raise PositionError(ErrorText("a position is a JSON object"))
        if data.get("game") != self.name:
            raise PositionError(
                ErrorText(
                    "this is not a position of {title} (game={value})",
                    title=self.title_text(),
                    value=repr(data.get("game")),
                )
            )
        version = data.get("version")
        if type(version) is not int or version != 1:
            raise PositionError(
                ErrorText(
                    "unsupported position version {version}; known: 1", version=short_repr(version)
                )
            )
        if "players" not in data:
            raise PositionError(
                ErrorText("bad position header: 'players' (the player count) is missing")
            )
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise PositionError(
                ErrorText(
                    "bad position header: 'options' is a JSON object of option names to values"
                )
            )
        try:
            players = data["players"]
            self.check_players(players)
            options = self.options_type.from_mapping(options)
        except OptionError as exc:
            raise PositionError(ErrorText("bad position header: {exc}", exc=exc.text)) from None
        return players, options

    def _check_setup_fields(self, setup: Mapping[str, Any], known: Sequence[str]) -> None:
        """Raise :class:`SetupError` naming a field of ``setup`` that is not in ``known``.

        Every game's :meth:`from_setup` calls it first, with the fields its setup may have.

        >>> import campfire
        >>> game = campfire.all_games()[0]
        >>> game._check_setup_fields({"seed": 3}, ("start_player", "decks"))
        Traceback (most recent call last):
            ...
        campfire.core.errors.SetupError: unknown setup field 'seed'; a setup of ... has ...
        """
        extra = _first_unknown(setup, known)
        if extra is not None:
            raise SetupError(
                ErrorText(
                    "unknown setup field {extra}; a setup of {title} has {value}",
                    extra=extra,
                    title=self.title_text(),
                    value=sorted(known),
                )
            )

    def _read_position(
        self, data: Mapping[str, Any], read_state: Callable[[int, Any, Mapping[str, Any]], S]
    ) -> S:
        """Check a whole position and build its state with ``read_state(players, options, state)``.

        The header is checked first (:meth:`_read_position_header`), then the top-level fields
        (:data:`POSITION_FIELDS`, the ``state`` an object); ``read_state`` reads the game's own
        ``state`` object. Whatever it raises for a malformed value (a :class:`CampfireError`
        such as a bad card name, or a ``KeyError``, ``TypeError``, ``ValueError``,
        ``IndexError`` or ``AttributeError``) becomes a :class:`PositionError` that names it;
        its own :class:`PositionError` passes through.
        """
        players, options = self._read_position_header(data)
        state = data.get("state")
        if not isinstance(state, Mapping):
            raise PositionError(
                ErrorText("a position of {title} needs a 'state' object", title=self.title_text())
            )
        extra = _first_unknown(data, POSITION_FIELDS)
        if extra is not None:
            raise PositionError(
                ErrorText(
                    "unknown position field {extra}; a position has {value}",
                    extra=extra,
                    value=list(POSITION_FIELDS),
                )
            )
        try:
            return read_state(players, options, state)
        except PositionError:
            raise
        except CampfireError as exc:
            raise PositionError(
                ErrorText(
                    "malformed {title} position: {exc}", title=self.title_text(), exc=exc.text
                )
            ) from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise PositionError(
                ErrorText(
                    "malformed {title} position: {exc}", title=self.title_text(), exc=repr(exc)
                )
            ) from None

    def __repr__(self) -> str:
        return f"<Game {self.name}: {self.title}, {self.min_players}-{self.max_players} players>"


def _first_unknown(data: Mapping[str, Any], known: Sequence[str]) -> str | None:
    """The first key of ``data`` (sorted) that is not in ``known``, as ``repr``; else ``None``."""
    extra = sorted(str(k) for k in data if k not in known)
    return repr(extra[0]) if extra else None
