"""Observation encoders: a seat's view (and its memory) as a flat ``float32`` vector.

Each game brings its own encoder (``Game.encoder(players)``, in the game's package; the base
classes are in :mod:`campfire.core.encoding`). :func:`encoder_for` gives the encoder of a game
and player count, shared by every caller; :func:`describe` lists its slots.
``docs/adapters.md`` explains every slot of the built-in games.

>>> from campfire import all_games
>>> for game in all_games():
...     state = game.new_game(game.min_players, seed=3)
...     enc = encoder_for(game.name, game.min_players)
...     vec = enc.encode(state.view(0), None if not enc.uses_memory else game.new_belief(
...         0, game.min_players, state.options))
...     assert vec.shape == (enc.size,) and vec.dtype.name == "float32"
...     assert [name for name, _, _ in enc.slots][:2] == ["players", "to_act"]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campfire.core import ErrorText, Game, UnknownGameError, all_games, get
from campfire.core.encoding import Encoder, Slot

__all__ = ["Encoder", "Slot", "describe", "encoder_for", "has_encoder"]

#: the encoders made so far, by game and player count (shared: they keep only caches)
_INSTANCES: dict[tuple[str, int], Encoder] = {}


def has_encoder(game: Game[Any]) -> bool:
    """Whether ``game`` brings an observation encoder (overrides ``Game.encoder``)."""
    return type(game).encoder is not Game.encoder


def encoder_for(game: str | Game[Any], players: int) -> Encoder:
    """The observation encoder of ``game`` (a name or a game) for ``players`` players.

    One encoder per game and player count is shared by every caller: an encoder holds no
    game, only caches of values it computed from its inputs (kept by value), which every
    game of that player count can reuse. Raises
    :class:`~campfire.core.errors.UnknownGameError` for a game without an encoder.
    """
    name = game.name if isinstance(game, Game) else game
    encoder = _INSTANCES.get((name, players))
    if encoder is None:
        spec = game if isinstance(game, Game) else _game_with_encoder(game)
        if not has_encoder(spec):
            raise _no_encoder(spec.name)
        encoder = _INSTANCES[spec.name, players] = spec.encoder(players)
    return encoder


def _game_with_encoder(name: str) -> Game[Any]:
    try:
        return get(name)
    except UnknownGameError:
        raise _no_encoder(name) from None


def _no_encoder(name: str) -> UnknownGameError:
    known = ", ".join(g.name for g in all_games() if has_encoder(g))
    return UnknownGameError(
        ErrorText(
            "no observation encoder for {name}; encoders exist for {known}",
            name=repr(name),
            known=known or ErrorText("none"),
        )
    )


def describe(game: str | Game[Any]) -> Sequence[tuple[str, tuple[int, ...], str]]:
    """The slots of ``game``'s encoder (its shape is the same for every player count).

    A game without an encoder (or no game) has none.
    """
    try:
        spec = get(game) if isinstance(game, str) else game
    except UnknownGameError:
        return ()
    if not has_encoder(spec):
        return ()
    return encoder_for(spec, spec.max_players).slots
