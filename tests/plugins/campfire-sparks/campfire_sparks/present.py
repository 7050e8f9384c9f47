"""How Sparks looks to a person: the trick, the hands, the players, prompts, log lines, legend.

The presenter sees only a seat's view, its legal actions and the events it may see (see
:mod:`campfire.core.present`): it shows the seat's own hand face up and every other hand as a
count of face-down cards.

>>> from campfire_sparks import GAME
>>> state = GAME.new_game(2, seed=5)
>>> shown = GAME.presenter().display(state.view(1), state.legal_actions(1), ["Ann", "Bob"])
>>> shown.prompt
'Your lead: play any card.'
>>> [(a.label, a.target, a.key) for a in shown.actions][:1]
[('Play blue 5', 'card:B5', 'B5')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, cast

from campfire.core import Action, Event
from campfire.core import present as _present
from campfire.core.present import (
    CardFace,
    Display,
    LegendEntry,
    Message,
    PlayerPanel,
    Presenter,
    ViewHeader,
    Zone,
    and_list,
    text,
)

from .actions import SparksAction
from .cards import SUIT_LETTERS, SUIT_NAMES, card_name, parse_card, rank_of, suit_of
from .types import GameOverData, SparksOutcome, SparksView

__all__ = ["MESSAGES", "SUIT_SYMBOLS", "SparksPresenter", "card_label"]

#: the shape that tells each suit without seeing its colour: flame, drop, leaf
SUIT_SYMBOLS = ("▲", "●", "♣")

#: every English template of Sparks' log lines and display texts, by message id
MESSAGES: dict[str, str] = {
    # cards
    "sparks.suit.red": "red",
    "sparks.suit.blue": "blue",
    "sparks.suit.green": "green",
    "sparks.card": "{suit} {rank}",
    # events
    "sparks.play": "{player} plays {card}.",
    "sparks.play.you": "You play {card}.",
    "sparks.play.void": "{player} plays {card} and has no {suit} card.",
    "sparks.play.void.you": "You play {card}; you have no {suit} card.",
    "sparks.trick": "{player} wins trick {number}.",
    "sparks.trick.you": "You win trick {number}.",
    "sparks.game_over": "The game is over. {scores}. The winner: {winners}.",
    "sparks.game_over.shared": "The game is over. {scores}. {winners} share the win.",
    # scores
    "sparks.score": "{player}: {count} points",
    "sparks.score.one": "{player}: 1 point",
    "sparks.score.last": "{player}: {count} points, with the last trick's bonus",
    "sparks.score.last.one": "{player}: 1 point, with the last trick's bonus",
    "sparks.tricks": "{count} tricks",
    "sparks.tricks.one": "1 trick",
    "sparks.result.win": "{winners} wins with {points} points.",
    "sparks.result.shared": "{winners} share the win with {points} points.",
    # status and prompts
    "sparks.status": "Trick {number} of {total}",
    "sparks.status.trumps": "Trick {number} of {total}; red is trumps",
    "sparks.status.over": "The game is over",
    "sparks.prompt.lead": "Your lead: play any card.",
    "sparks.prompt.follow": "Play a card; follow {suit} if you can.",
    "sparks.prompt.wait": "{player} is to play.",
    "sparks.prompt.over": "The game is over.",
    # zones, facts, actions
    "sparks.zone.trick": "Trick",
    "sparks.zone.last": "Last trick",
    "sparks.zone.last.note": "won by {player}",
    "sparks.zone.hand.you": "Your hand",
    "sparks.zone.hand": "Hand of {player}",
    "sparks.zone.unused": "Out of play",
    "sparks.fact.hand": "cards in hand",
    "sparks.action.play": "Play {card}",
    # legend
    "sparks.legend.suit": "a {suit} card; {letter} in the notation",
    "sparks.legend.card": "a card: the suit's letter and the rank 1–9",
}


def _text(message_id: str, **params: Any) -> str:
    return text(message_id, MESSAGES[message_id], **params)


def _message(message_id: str, **params: Any) -> Message:
    return Message.make(message_id, MESSAGES[message_id], **params)


def _suit(suit: int) -> str:
    return _text(f"sparks.suit.{SUIT_NAMES[suit]}")


def card_label(name: str) -> str:
    """A card's name in words in the language in force (``R7`` → ``red 7``)."""
    card = parse_card(name)
    return _text("sparks.card", suit=_suit(suit_of(card)), rank=rank_of(card))


#: the fields of the core's card faces: the rank drawn big and the owner (the seat that played
#: or holds a card) are given where the display model has them
_FACE_FIELDS = frozenset(f.name for f in fields(CardFace))


def _face(
    prefix: str, name: str, marks: tuple[str, ...] = (), owner: int | None = None
) -> CardFace:
    card = parse_card(name)
    suit = suit_of(card)
    extra: dict[str, Any] = {}
    if "rank" in _FACE_FIELDS:
        extra["rank"] = str(rank_of(card))
    if "owner" in _FACE_FIELDS:
        extra["owner"] = owner
    return CardFace(
        f"{prefix}:{card_name(card)}",
        card_label(name),
        card_name(card),
        colour=SUIT_NAMES[suit],
        symbol=SUIT_SYMBOLS[suit],
        marks=marks,
        **extra,
    )


def _plural(message_id: str, count: int, **params: Any) -> str:
    one = ".one" if count == 1 else ""
    return _text(f"{message_id}{one}", count=count, **params)


class SparksPresenter(Presenter):
    """Sparks' display models, log lines and legend."""

    def display(
        self, view: Mapping[str, Any], legal: Sequence[Action], names: Sequence[str]
    ) -> Display:
        """The display model of ``view`` with its legal actions (played cards by player)."""
        v = cast(SparksView, view)
        head = ViewHeader.of(view)
        seat = head.seat
        n = head.players
        zones = [self._trick(v, names)]
        if v["last_trick"]:
            zones.append(self._last(v, names))
        for s in range(n):
            if s == seat:
                zones.append(
                    Zone(
                        f"hand:{s}",
                        _text("sparks.zone.hand.you"),
                        "row",
                        tuple(_face("card", c, owner=seat) for c in v["hand"]),
                        owner=seat,
                    )
                )
            else:
                zones.append(
                    Zone(
                        f"hand:{s}",
                        _text("sparks.zone.hand", player=self.name(names, s)),
                        "hidden",
                        owner=s,
                        count=v["hand_counts"][s],
                    )
                )
        zones.append(
            Zone("unused", _text("sparks.zone.unused"), "counter", count=v["unused_count"])
        )
        players = tuple(
            PlayerPanel(
                s,
                self.name(names, s),
                _plural("sparks.tricks", v["tricks"][s]),
                ((_text("sparks.fact.hand"), str(v["hand_counts"][s])),),
                to_act=s in head.to_act,
                you=s == seat,
            )
            for s in range(n)
        )
        actions = tuple(
            self.choice(
                a,
                n,
                _text("sparks.action.play", card=card_label(card_name(a.card))),
                f"card:{card_name(a.card)}",
                group="play",
                key=card_name(a.card),
            )
            for a in legal
            if isinstance(a, SparksAction)
        )
        return Display(
            game=self.game.name,
            seat=seat,
            status=self._status(v),
            prompt=self._prompt(v, seat, names),
            to_act=head.to_act,
            players=players,
            zones=tuple(zones),
            actions=actions,
            over=head.over,
            result=self._result(v, names) if head.over else (),
        )

    def _trick(self, v: SparksView, names: Sequence[str]) -> Zone:
        n = v["players"]
        cards = tuple(
            _face("trick", c, (self.name(names, (v["leader"] + i) % n),), (v["leader"] + i) % n)
            for i, c in enumerate(v["trick"])
        )
        return Zone("trick", _text("sparks.zone.trick"), "row", cards)

    def _last(self, v: SparksView, names: Sequence[str]) -> Zone:
        n = v["players"]
        first = v["last_leader"] or 0
        cards = tuple(
            _face("last", c, (self.name(names, (first + i) % n),), (first + i) % n)
            for i, c in enumerate(v["last_trick"])
        )
        note = _text("sparks.zone.last.note", player=self.name(names, v["leader"]))
        return Zone("last", _text("sparks.zone.last"), "row", cards, note=note)

    @staticmethod
    def _status(v: SparksView) -> str:
        if v["phase"] == "game_over":
            return _text("sparks.status.over")
        number = sum(v["tricks"]) + 1
        key = "sparks.status.trumps" if v["trumps"] else "sparks.status"
        return _text(key, number=number, total=v["hand_size"])

    def _prompt(self, v: SparksView, seat: int | None, names: Sequence[str]) -> str:
        if v["phase"] == "game_over":
            return _text("sparks.prompt.over")
        to_act = v["to_act"][0]
        if to_act != seat:
            return _text("sparks.prompt.wait", player=self.name(names, to_act))
        if v["led"] is None:
            return _text("sparks.prompt.lead")
        return _text("sparks.prompt.follow", suit=_suit(SUIT_NAMES.index(v["led"])))

    def _score_lines(self, outcome: SparksOutcome, names: Sequence[str]) -> list[str]:
        lines = []
        for seat, points in enumerate(outcome["scores"]):
            last = ".last" if outcome["details"][seat]["last_trick"] else ""
            lines.append(_plural(f"sparks.score{last}", points, player=self.name(names, seat)))
        return lines

    def _winners(self, outcome: SparksOutcome, names: Sequence[str]) -> str:
        return and_list([self.name(names, int(w)) for w in outcome["winners"]])

    def _result(self, v: SparksView, names: Sequence[str]) -> tuple[str, ...]:
        outcome = v["outcome"]
        winners = outcome["winners"]
        key = "sparks.result.win" if len(winners) == 1 else "sparks.result.shared"
        points = outcome["scores"][int(winners[0])]
        last = _text(key, winners=self._winners(outcome, names), points=points)
        return (*self._score_lines(outcome, names), last)

    # ----- what a step changed ------------------------------------------------------------------

    def changes(self, events: Sequence[Event], seat: int | None) -> Any:
        """The cards and zones a step changed and the card it moved (where the model has steps).

        A played card moves from its player's hand to the trick; a finished trick goes to
        ``last`` and empties the trick. (``StepDisplay`` of ``campfire.core.present``.)
        """
        changed: list[str] = []
        moved: list[tuple[str, str]] = []
        # a trick's last card goes with the whole trick to ``last`` in the same step
        place = "last" if any(e.type == "trick" for e in events) else "trick"
        for event in events:
            d = event.data
            if event.type == "play":
                card, player = d["card"], d["seat"]
                source = f"card:{card}" if player == seat else f"hand:{player}"
                changed.extend((place, f"{place}:{card}", f"hand:{player}"))
                moved.append((source, f"{place}:{card}"))
            elif event.type == "trick":
                changed.extend(("trick", "last"))
        step_display = getattr(_present, "StepDisplay", None)
        if step_display is None:  # a display model without steps
            return None
        return step_display(tuple(dict.fromkeys(changed)), tuple(moved))

    # ----- log lines ---------------------------------------------------------------------------

    def message(self, event: Event, names: Sequence[str], seat: int | None) -> Message | None:
        """The log line of ``event`` as ``seat`` reads it."""
        d = event.data
        if event.type == "play":
            you = ".you" if d["seat"] == seat else ""
            void = ".void" if d["void"] else ""
            params: dict[str, Any] = {
                "player": self.name(names, int(d["seat"])),
                "card": card_label(d["card"]),
            }
            if d["void"]:
                params["suit"] = _suit(SUIT_NAMES.index(d["void"]))
            return _message(f"sparks.play{void}{you}", **params)
        if event.type == "trick":
            you = ".you" if d["winner"] == seat else ""
            return _message(
                f"sparks.trick{you}",
                player=self.name(names, int(d["winner"])),
                number=d["number"],
            )
        if event.type == "game_over":
            outcome = cast(GameOverData, d)["outcome"]
            scores = "; ".join(self._score_lines(outcome, names))
            winners = self._winners(outcome, names)
            shared = len(outcome["winners"]) > 1
            key = "sparks.game_over.shared" if shared else "sparks.game_over"
            return _message(key, scores=scores, winners=winners, outcome=outcome)
        return None

    def legend(self) -> list[LegendEntry]:
        """Every symbol of Sparks' displays."""
        entries = [LegendEntry("R7", _text("sparks.legend.card"))]
        for suit, symbol in enumerate(SUIT_SYMBOLS):
            meaning = _text("sparks.legend.suit", suit=_suit(suit), letter=SUIT_LETTERS[suit])
            entries.append(LegendEntry(symbol, meaning))
        return entries
