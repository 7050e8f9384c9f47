"""Events in plain words, for the event log of the terminal UI.

Only events a seat may see are ever described for it (the caller filters them with
:func:`campfire.core.visible_events`); this module only turns one event into one sentence.

>>> from campfire.core import Event
>>> describe("tracker", Event("peek", {"seat": 1, "pos": 12}), ["Ann", "Bob"])
'Bob peeks at position 12.'
>>> describe("apache", Event("claim", {"seat": 0, "type": "hunter"}), ["Ann", "Bob"])
'Ann claims with the hunter.'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from campfire.core import Event

__all__ = ["describe"]

_Phrase = Callable[[dict[str, Any], Callable[[Any], str]], str | None]


def _cards(cards: Sequence[Any]) -> str:
    return ", ".join(str(c) for c in cards) if cards else "nothing"


def _tracker(t: str, d: dict[str, Any], who: Callable[[Any], str]) -> str | None:
    phrases: dict[str, Callable[[], str]] = {
        "peek": lambda: f"{who(d['seat'])} peeks at position {d['pos']}.",
        # tracker §5.1: a memory game; the log never repeats the card that was seen
        "peek_card": lambda: f"You look at the card at position {d['pos']}.",
        "trackers_played": lambda: (
            f"{who(d['seat'])} puts {d['count']} tracker(s) into the centre ({d['left']} left)."
        ),
        "take": lambda: f"{who(d['seat'])} takes the card at position {d['pos']}.",
        "collection_done": lambda: f"{who(d['seat'])} has collected {d['count']} card(s).",
        "lift": lambda: f"{who(d['seat'])} lifts the card at position {d['pos']}.",
        "relocate": lambda: (
            f"{who(d['seat'])} moves the card at position {d['from']} to position {d['to']}."
        ),
        "relocations_done": lambda: f"{who(d['seat'])} is done moving cards.",
        "player_out": lambda: f"{who(d['seat'])} has no trackers left (out of the game).",
        "final_turns": lambda: f"{who(d['seat'])} is the last player and gets two last turns.",
        "final_peek_declined": lambda: f"{who(d['seat'])} declines the last peek.",
        "game_over": lambda: "The game is over; every card is turned face up.",
    }
    fn = phrases.get(t)
    return fn() if fn else None


def _dudab(t: str, d: dict[str, Any], who: Callable[[Any], str]) -> str | None:
    phrases: dict[str, Callable[[], str]] = {
        "draw": lambda: f"{who(d['seat'])} draws a card.",
        "drawn_card": lambda: f"You draw {d['card']}.",
        "place": lambda: (
            f"{who(d['seat'])} plays {d['card']} on column {d['column']}"
            + (f" and calls {d['call']}." if d.get("call") else ".")
        ),
        "call_failed": lambda: f"{who(d['seat'])} cannot answer the call.",
        "reveal_hand": lambda: f"{who(d['seat'])} shows the hand: {_cards(d['cards'])}.",
        "capture": lambda: (
            f"{who(d['seat'])} captures column {d['column']} ({len(d['cards'])} card(s))."
        ),
        "keep": lambda: f"{who(d['seat'])} keeps a card.",
        "keep_card": lambda: f"You keep {d['card']}.",
        "rest": lambda: f"{who(d['seat'])} puts {d['count']} card(s) on the {d['to']}.",
        "rest_cards": lambda: f"Your cards: {_cards(d['cards'])}.",
        "penalty": lambda: f"{who(d['seat'])} takes a penalty card.",
        "penalty_reveal": lambda: f"The penalty card is {d['card']}.",
        "to_pile": lambda: f"{who(d['seat'])} puts a card on the pile.",
        "to_pile_card": lambda: f"You put {d['card']} on your pile.",
        "round_end": lambda: f"Round {d['round']} is over.",
        "round_start": lambda: f"Round {d['round']} starts; {who(d['start_player'])} begins.",
        "deal": lambda: f"You are dealt {_cards(d['cards'])}.",
        "game_over": lambda: "The game is over.",
    }
    fn = phrases.get(t)
    return fn() if fn else None


def _manitou(t: str, d: dict[str, Any], who: Callable[[Any], str]) -> str | None:
    phrases: dict[str, Callable[[], str]] = {
        "pick": lambda: f"{who(d['seat'])} picks a card ({d['count']} so far).",
        "pick_card": lambda: f"You pick {d['card']}.",
        "hand": lambda: f"Your hand: {_cards(d['hand'])}.",
        "dealt": lambda: "Every hand is ready; the hunt begins.",
        "play": lambda: (
            f"{who(d['seat'])} plays {d['card']} on ground {d['ground']}"
            + (" with the totem." if d.get("totem") else ".")
        ),
        "draw": lambda: f"{who(d['seat'])} draws a card.",
        "draw_card": lambda: f"You draw {d['card']}.",
        "hero_down": lambda: f"{who(d['seat'])} plays the hero {d['card']} face down.",
        "play_over": lambda: "Nobody plays any more; the grounds are scored.",
        "thief": lambda: "The thief strikes.",
        "thief_finds_nothing": lambda: f"The thief finds nothing at {who(d['seat'])}.",
        "take": lambda: f"{who(d['seat'])} takes {d['tile']} from ground {d['ground']}.",
        "piece": lambda: f"{who(d['to'])} takes the {d['piece']}.",
        "no_play": lambda: f"{who(d['seat'])} cannot play and passes.",
        "tiles_removed": lambda: (
            f"Left-over tiles leave the game from ground {d['ground']}: {_cards(d['tiles'])}."
        ),
        "tiles_to_bag": lambda: (
            f"Left-over tiles go back into the bag from ground {d['ground']}: {_cards(d['tiles'])}."
        ),
        "hunt_end": lambda: f"Hunt {d['hunt']} is over.",
        "hunt_start": lambda: f"Hunt {d['hunt']} starts; {who(d['dealer'])} deals.",
        "horse_move": lambda: (
            f"{who(d['seat'])} moves {d['card']} from ground {d['from']} to ground {d['to']}."
        ),
        "robbed": lambda: f"{who(d['seat'])} is robbed of {d['tile']}.",
        "totem_pass": lambda: f"{who(d['seat'])} does not use the totem.",
        "horse_pass": lambda: f"{who(d['seat'])} does not use the horse.",
        "game_over": lambda: "The game is over.",
    }
    fn = phrases.get(t)
    return fn() if fn else None


def _apache(t: str, d: dict[str, Any], who: Callable[[Any], str]) -> str | None:
    phrases: dict[str, Callable[[], str]] = {
        "reveal": lambda: f"{who(d['seat'])} reveals {d['card']} ({d['deck_left']} left).",
        "answered": lambda: f"{who(d['seat'])} has answered.",
        "answer": lambda: f"You answered {d['answer']}.",
        "claim": lambda: f"{who(d['seat'])} claims with the {d['type']}.",
        "pass": lambda: f"{who(d['seat'])} passes.",
        "window_closed": lambda: (
            "The window closes: "
            + (", ".join(f"{who(q['seat'])} ({q['type']})" for q in d["queue"]) or "no claims")
            + "."
        ),
        "claim_resolved": lambda: (
            f"{who(d['seat'])}'s {d['type']} claim: {str(d['result']).replace('_', ' ')}."
        ),
        "revealer": lambda: f"{who(d['seat'])} reveals next.",
        "choose": lambda: (
            f"{who(d['seat'])} chooses for the {d['type']}: {', '.join(d['choices'])}."
        ),
        "game_over": lambda: "The game is over.",
    }
    fn = phrases.get(t)
    return fn() if fn else None


_GAMES: dict[str, Callable[[str, dict[str, Any], Callable[[Any], str]], str | None]] = {
    "tracker": _tracker,
    "dudab": _dudab,
    "manitou": _manitou,
    "apache": _apache,
}


_IRREGULAR = {"has": "have", "is": "are", "does": "do", "was": "were"}


def _second_person(text: str) -> str:
    """Agree the verb after "You": ``You peeks`` → ``You peek``, ``You has`` → ``You have``.

    >>> _second_person("You passes."), _second_person("You has no trackers left.")
    ('You pass.', 'You have no trackers left.')
    """
    if not text.startswith("You "):
        return text
    verb, space, rest = text[4:].partition(" ")
    bare = verb.rstrip(".,")
    tail = verb[len(bare) :]
    if bare in _IRREGULAR:
        new = _IRREGULAR[bare]
    elif bare.endswith(("sses", "shes", "ches", "xes")):
        new = bare[:-2]
    elif bare.endswith("ies") and len(bare) > 4:
        new = bare[:-3] + "y"
    elif bare.endswith("s") and not bare.endswith("ss"):
        new = bare[:-1]
    else:
        return text
    return "You " + new + tail + space + rest


def describe(game: str, event: Event, names: Sequence[str]) -> str:
    """One sentence for ``event`` of ``game``; ``names`` are the players' display names.

    Unknown events fall back to their type and data, so nothing is ever dropped silently.
    """

    def who(seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return f"seat {seat}"

    phrase = _GAMES.get(game)
    try:
        text = phrase(event.type, event.data, who) if phrase else None
    except (KeyError, TypeError):
        text = None
    if text is not None:
        return _second_person(text)
    details = ", ".join(
        f"{k} {who(v) if k == 'seat' else v}" for k, v in event.data.items() if k != "outcome"
    )
    return f"{event.type.replace('_', ' ')}" + (f": {details}" if details else "") + "."
