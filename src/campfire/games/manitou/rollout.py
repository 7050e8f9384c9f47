"""A fast rollout model of Big Manitou for search (ISMCTS).

Simulated games are played by the heuristic bot's rule of thumb
(:class:`~campfire.games.manitou.bots.HeuristicRules`) in every seat, for a limited horizon
(about one hunt); the position is then scored by the tiles owned at that moment (manitou §7),
which is what the rest of the game adds to.

The rule reads the facts every seat sees (the tiles and cards on the grounds, the tiles each seat
owns) straight from the simulated state instead of through a view, so a move costs a fraction of
the bot's, yet it is the same move the bot makes: ``ismcts`` with this policy (``rollout=auto``
or ``policy``) searches exactly as it does with ``rollout=heuristic``, several times faster.
``rollout=random`` plays uniformly random moves instead (a much weaker model here).
"""

from __future__ import annotations

import random
from typing import cast

from campfire.core import Action, Outcome, RolloutPolicy, State

from .actions import ManitouAction
from .bots import Ground, HeuristicRules
from .state import DOWN, ManitouState

__all__ = ["ManitouRollout"]


def _grounds(state: ManitouState) -> list[Ground]:
    """The grounds as the bot reads them from its view: tiles, and (seat, card, face up)."""
    # a card on the table is coded card | seat << 4, plus DOWN once turned face down
    return [
        (tiles, [((code & 255) >> 4, code & 15, not code & DOWN) for code in cards])
        for tiles, cards in zip(state.grounds, state.table, strict=True)
    ]


class ManitouRollout(RolloutPolicy):
    """The heuristic bot's play for about a hunt, then the tiles owned scored as they stand."""

    horizon = 80

    def __init__(self) -> None:
        self._rules: dict[int, HeuristicRules] = {}

    def act(self, state: State, seat: int, rng: random.Random) -> Action:
        """The heuristic bot's choice (deterministic: ``rng`` is not used)."""
        assert isinstance(state, ManitouState)
        legal = cast(list[ManitouAction], state.legal_actions(seat))
        if len(legal) == 1:
            return legal[0]
        rules = self._rules.get(seat)
        if rules is None:
            # the beat table of the state's hero chart, which the state made for its contests
            rules = self._rules[seat] = HeuristicRules(seat, state._beats)
        return rules.choose(legal, state.owned, lambda: _grounds(state))

    def evaluate(self, state: State) -> Outcome | None:
        """The victory points of the tiles owned now (manitou §7)."""
        assert isinstance(state, ManitouState)
        return state.score()
