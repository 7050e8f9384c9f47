"""How Apache looks and speaks to a person: display models, log lines and a legend.

Built only from a seat's view, its legal actions and the events it may see (``campfire.core.
present``). Cards are named in plain words (``red hunter``, ``buffalo``); each colour has a
palette name and a letter (R, Y, P, G, B), so it reads without seeing colours. During a
reaction poll the other seats' answers stay hidden: the display says only that they answered.

>>> import campfire
>>> game = campfire.get_game("apache")
>>> state = game.new_game(2, seed=1)
>>> seat = state.current_seat()
>>> d = game.presenter().display(state.view(seat), state.legal_actions(seat), ["Ann", "Bob"])
>>> d.prompt, d.actions[0].label, d.actions[0].target
('Turn up the next prairie card.', 'Turn up the next prairie card', 'deck')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from campfire.core import Action, Event
from campfire.core.present import (
    ActionChoice,
    CardFace,
    Display,
    LegendEntry,
    Message,
    PlayerPanel,
    Presenter,
    Zone,
    render_text,
)

from .actions import ApacheAction
from .cards import COLOUR_CODES, COLOURS, TYPE_CODES, TYPES, card_name
from .types import ApacheView

if TYPE_CHECKING:
    from .state import ApacheState

__all__ = ["MESSAGES", "ApachePresenter", "card_label", "card_short", "cards_text", "render"]

#: Every log line of Apache: message id → English template. A translation replaces the templates
#: by id; ``.you`` ids are the reader's own actions.
MESSAGES: dict[str, str] = {
    "apache.reveal": "{player} turns up {card}; {left} cards are still face down.",
    "apache.reveal.you": "You turn up {card}; {left} cards are still face down.",
    "apache.reveal.last": "{player} turns up {card}, the last card: one more chance to claim.",
    "apache.reveal.last.you": "You turn up {card}, the last card: one more chance to claim.",
    "apache.answered": "{player} has answered.",
    "apache.answer.claim.you": "You claim with your {type} after {ms} ms.",
    "apache.answer.pass.you": "You pass.",
    "apache.claim": "{player} claims with the {type}.",
    "apache.claim.you": "You claim with your {type}.",
    "apache.pass": "{player} passes.",
    "apache.pass.you": "You pass.",
    "apache.window_closed": "Claims, in order: {claims}.",
    "apache.window_closed.none": "Nobody claims.",
    "apache.choose": "{player} chooses what the {type} takes.",
    "apache.choose.you": "Choose what your {type} takes.",
    "apache.claim_resolved.won": "{player}'s {type} takes {cards}; the pile holds {pile} cards.",
    "apache.claim_resolved.won.you": "Your {type} takes {cards}; your pile holds {pile} cards.",
    "apache.claim_resolved.won.tribute": (
        "{player}'s {type} takes {cards} and collects war tribute ({tribute}); the pile holds "
        "{pile} cards."
    ),
    "apache.claim_resolved.won.tribute.you": (
        "Your {type} takes {cards} and collects war tribute ({tribute}); your pile holds {pile} "
        "cards."
    ),
    "apache.claim_resolved.starved": "{player}'s {type} finds nothing left to take (no penalty).",
    "apache.claim_resolved.starved.you": "Your {type} finds nothing left to take (no penalty).",
    "apache.claim_resolved.penalty": (
        "{player}'s {type} claim was not allowed: {discarded} from the top of the pile leave the "
        "game."
    ),
    "apache.claim_resolved.penalty.you": (
        "Your {type} claim was not allowed: {discarded} from the top of your pile leave the game."
    ),
    "apache.claim_resolved.penalty.none": (
        "{player}'s {type} claim was not allowed, but the pile is empty: nothing is lost."
    ),
    "apache.claim_resolved.penalty.none.you": (
        "Your {type} claim was not allowed, but your pile is empty: nothing is lost."
    ),
    "apache.revealer": "{player} is next to turn up a card.",
    "apache.revealer.you": "You are next to turn up a card.",
    "apache.game_over": "The game is over: {winners} with {score}. Piles: {standings}.",
}

_PALETTE = dict(zip(COLOURS, COLOUR_CODES, strict=True))
_BOOTY_SHORT = {
    "totem": "TOT",
    "necklace": "NEC",
    "tomahawk": "TOM",
    "buffalo": "BUF",
    "teepee": "TEE",
}
_PLURAL = {
    "totem": "totem poles",
    "necklace": "necklaces",
    "tomahawk": "tomahawks",
    "buffalo": "buffalo",
    "teepee": "teepees",
}
_SINGULAR = {"totem": "totem pole"}
_BOOTY_OF = {"chief": "totem", "maiden": "necklace", "warrior": "tomahawk", "hunter": "buffalo"}


def card_label(card: str) -> str:
    """A card in plain words: ``red-hunter`` → ``red hunter``, ``totem`` → ``totem pole``."""
    return card.replace("-", " ") if "-" in card else _SINGULAR.get(card, card)


def card_short(card: str) -> str:
    """A card's code: ``RH`` (red hunter), ``GW``, ``BUF`` (buffalo), ``TEE`` (teepee)."""
    if "-" in card:
        colour, kind = card.split("-", 1)
        return _PALETTE.get(colour, "?") + TYPE_CODES[TYPES.index(kind)]
    return _BOOTY_SHORT.get(card, card[:4].upper())


def _colour(card: str) -> tuple[str | None, str | None]:
    if "-" not in card:
        return None, None
    colour = card.split("-", 1)[0]
    return colour, _PALETTE.get(colour)


def cards_text(cards: Sequence[str]) -> str:
    """Cards in plain words: Indians one by one, then booty counted.

    >>> cards_text(["red-hunter", "buffalo", "buffalo", "teepee"])
    'red hunter, 2 buffalo, 1 teepee'
    """
    if not cards:
        return "nothing"
    indians = [card_label(c) for c in cards if "-" in c]
    counts: dict[str, int] = {}
    for c in cards:
        if "-" not in c:
            counts[c] = counts.get(c, 0) + 1
    booty = [f"{k} {_PLURAL[c] if k > 1 else card_label(c)}" for c, k in counts.items()]
    return ", ".join(indians + booty)


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _cards(n: int) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


class ApachePresenter(Presenter):
    """The presenter of Apache."""

    # ----- the display ---------------------------------------------------------------------

    def display(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> Display:
        """The table, the hand cards, the piles, the Pow-Wow board and the labelled actions."""
        return self._display(cast(ApacheView, view), legal, names)

    def _display(self, view: ApacheView, legal: Sequence[Action], names: Sequence[str]) -> Display:
        seat = view.get("seat")
        me = seat if isinstance(seat, int) else None
        n = int(view["players"])
        over = view["phase"] == "game_over"
        table_ids = self._table_ids(view)
        actions = tuple(
            self._choice(a, view, n, table_ids) for a in legal if isinstance(a, ApacheAction)
        )
        return Display(
            game=self.game.name,
            seat=me,
            status=self._status(view),
            prompt=self._prompt(view, me, names),
            to_act=tuple(int(s) for s in view["to_act"]),
            players=self._players(view, me, names),
            zones=self._zones(view, me, names),
            actions=actions,
            progress=self._progress(view),
            over=over,
            result=self._result(view, names) if over else (),
        )

    @staticmethod
    def _table_ids(view: ApacheView) -> dict[str, str]:
        """The id of the first table card of each kind (what a choice points at)."""
        ids: dict[str, str] = {}
        for i, card in enumerate(view["table"]):
            ids.setdefault(card, f"table:{i}")
        return ids

    def _status(self, view: ApacheView) -> str:
        if view["phase"] == "game_over":
            return "Game over"
        if view["window"] == 0:
            return "Apache — 114 cards face down"
        left = int(view["deck_left"])
        if view["last_card"]:
            return f"Card {view['window']} — the last card is up: the final claim"
        return f"Card {view['window']} — {_cards(left)} still face down"

    def _zones(self, view: ApacheView, me: int | None, names: Sequence[str]) -> tuple[Zone, ...]:
        colours = list(view["colours"])
        mine = colours[me] if me is not None else None
        neutral = set(view["neutral_colours"])
        table = []
        for i, card in enumerate(view["table"]):
            colour, symbol = _colour(card)
            marks: tuple[str, ...] = ()
            if colour is not None and colour == mine:
                marks = ("yours",)
            elif colour in neutral:
                marks = ("neutral",)
            elif colour is not None:
                marks = (f"{self.name(names, colours.index(colour))}'s",)
            table.append(
                CardFace(
                    f"table:{i}",
                    card_label(card),
                    card_short(card),
                    True,
                    colour,
                    symbol,
                    marks=marks,
                )
            )
        note = f"neutral colours: {', '.join(view['neutral_colours'])}" if neutral else ""
        zones = [
            Zone("deck", "Face-down prairie cards", "hidden", count=int(view["deck_left"])),
            Zone("table", "Table", "row", tuple(table), note=note),
        ]
        if me is not None:
            protect = view.get("protect_me")
            hand = []
            for t in TYPES:
                card = f"{mine}-{t}"
                hand_marks: tuple[str, ...] = ()
                if protect is not None:
                    hand_marks = ("can claim",) if protect[t] else ("penalty if played",)
                hand.append(
                    CardFace(
                        f"hand:{t}",
                        f"your {t}",
                        card_short(card),
                        True,
                        mine,
                        _PALETTE.get(str(mine)),
                        marks=hand_marks,
                    )
                )
            zones.append(Zone("hand", "Your hand cards", "row", tuple(hand), owner=me))
        zones.append(self._board(view, names))
        for s, pile in enumerate(view["piles"]):
            faces = []
            for i, card in enumerate(pile):
                colour, symbol = _colour(card)
                faces.append(
                    CardFace(
                        f"pile:{s}:{i}", card_label(card), card_short(card), True, colour, symbol
                    )
                )
            zones.append(
                Zone(
                    f"pile:{s}",
                    f"{self.name(names, s)}'s victory pile",
                    "stack",
                    tuple(faces),
                    owner=s,
                    count=len(pile),
                    note=cards_text(pile) if pile else "",
                )
            )
        discarded = view["discarded"]
        zones.append(
            Zone(
                "discarded",
                "Out of the game (penalties)",
                "counter",
                count=len(discarded),
                note=cards_text(discarded) if discarded else "",
            )
        )
        return tuple(zones)

    def _board(self, view: ApacheView, names: Sequence[str]) -> Zone:
        """The Pow-Wow board: the claims of the window (public ones only)."""
        faces = []
        colours = view["colours"]
        if view["queue"]:
            done = int(view["resolved"])
            for i, claim in enumerate(view["queue"]):
                s = int(claim["seat"])
                marks = ["resolved" if i < done else ("choosing" if i == done else "waiting")]
                if claim["ms"] is not None:
                    marks.append(f"{claim['ms']} ms")
                if not claim["legal"]:
                    marks.append("not allowed")
                colour = colours[s]
                faces.append(
                    CardFace(
                        f"board:{i}",
                        f"{self.name(names, s)}'s {claim['type']}",
                        card_short(f"{colour}-{claim['type']}"),
                        True,
                        colour,
                        _PALETTE.get(colour),
                        marks=tuple(marks),
                    )
                )
        else:
            for s, answer in enumerate(view["answers"]):
                if isinstance(answer, str) and answer.startswith("claim"):
                    kind = answer.split()[1]
                    colour = colours[s]
                    faces.append(
                        CardFace(
                            f"board:{s}",
                            f"{self.name(names, s)}'s {kind}",
                            card_short(f"{colour}-{kind}"),
                            True,
                            colour,
                            _PALETTE.get(colour),
                        )
                    )
        return Zone("board", "Pow-Wow board", "row", tuple(faces))

    def _players(
        self, view: ApacheView, me: int | None, names: Sequence[str]
    ) -> tuple[PlayerPanel, ...]:
        to_act = set(view["to_act"])
        winners = view["outcome"]["winners"] if "outcome" in view else []
        panels = []
        for s, pile in enumerate(view["piles"]):
            facts: list[tuple[str, str]] = []
            if pile:
                facts.append(("top of pile", card_label(pile[-1])))
            answer = view["answers"][s]
            if answer == "hidden":
                facts.append(("poll", "answered"))
            elif answer == "pass":
                facts.append(("poll", "passes"))
            elif isinstance(answer, str):
                facts.append(("poll", "claims with the " + answer.split()[1]))
            if view["phase"] == "reveal" and s == view["revealer"]:
                facts.append(("role", "turns up the next card"))
            score = _cards(int(view["scores"][s]))
            if s in winners:
                score += ", winner"
            colour = view["colours"][s]
            panels.append(
                PlayerPanel(
                    s,
                    self.name(names, s),
                    score,
                    tuple(facts),
                    colour,
                    _PALETTE.get(colour),
                    s in to_act,
                    s == me,
                )
            )
        return tuple(panels)

    def _progress(self, view: ApacheView) -> str:
        if view["phase"] == "claim":
            answered = sum(a is not None for a in view["answers"])
            return f"{answered} of {view['players']} players have answered"
        if view["phase"] == "choose" and view["queue"]:
            return f"claim {int(view['resolved']) + 1} of {len(view['queue'])}"
        return ""

    def _prompt(self, view: ApacheView, me: int | None, names: Sequence[str]) -> str:
        phase = view["phase"]
        to_act = [int(s) for s in view["to_act"]]
        who = _and([self.name(names, s) for s in to_act])
        if phase == "game_over":
            return "The game is over."
        if phase == "reveal":
            if me in to_act:
                return "Turn up the next prairie card."
            return f"Wait for {who} to turn up the next card."
        if phase == "claim":
            if me not in to_act:
                return f"Wait for {who} to answer." if to_act else "Wait."
            card = card_label(view["table"][-1]) if view["table"] else "a card"
            speed = " and how fast" if view["claim_order"] == "reaction" else ""
            return f"The {card} is up: claim with one of your hand cards{speed}, or pass."
        claim = view["queue"][int(view["resolved"])] if view["queue"] else {"type": "claim"}
        if me in to_act:
            return f"Choose what your {claim['type']} takes."
        return f"Wait for {who} to choose what the {claim['type']} takes."

    def _result(self, view: ApacheView, names: Sequence[str]) -> tuple[str, ...]:
        winners = view["outcome"]["winners"] if "outcome" in view else []
        lines = []
        for s, pile in enumerate(view["piles"]):
            win = " — winner" if s in winners else ""
            lines.append(
                f"{self.name(names, s)} ({view['colours'][s]}): {_cards(len(pile))} "
                f"({cards_text(pile)}){win}"
            )
        lines.append("Every card in the pile is a point; the most cards win, ties share the win.")
        return tuple(lines)

    def _choice(
        self, action: ApacheAction, view: ApacheView, n: int, table: Mapping[str, str]
    ) -> ActionChoice:
        kind = action.kind
        if kind == "reveal":
            return self.choice(
                action, n, "Turn up the next prairie card", "deck", group="reveal", key="reveal"
            )
        if kind == "pass":
            return self.choice(action, n, "Pass: claim nothing this time", group="pass", key="pass")
        if kind == "claim":
            t = TYPES[action.type]
            label = f"Claim with your {t}"
            key: str = t
            if action.ms >= 0:
                label += f" after {action.ms} ms"
                key = f"{t} {action.ms}"
            protect = view.get("protect_me")
            if protect is not None and not protect[t]:
                label += " (not allowed now: a penalty)"
            return self.choice(action, n, label, f"hand:{t}", group=f"claim {t}", key=key)
        claim = view["queue"][int(view["resolved"])] if view["queue"] else {"type": "hunter"}
        ctype = str(claim["type"])
        if kind == "booty":
            booty = _BOOTY_OF[ctype]
            k = view["table"].count(booty)
            return self.choice(
                action,
                n,
                f"Take all the {_PLURAL[booty]} ({k})",
                table.get(booty),
                group="choose",
                key="booty",
            )
        if kind == "teepees":
            k = view["table"].count("teepee")
            return self.choice(
                action,
                n,
                f"Take all the teepees ({k})",
                table.get("teepee"),
                group="choose",
                key="teepees",
            )
        card = card_name(action.card)
        if kind == "prisoner":
            label = f"Take the totem poles and the {card_label(card)} as prisoner"
        else:
            label = f"Marry the {card_label(card)} and take the teepees"
        return self.choice(action, n, label, table.get(card), group="choose", key=card)

    # ----- log lines -----------------------------------------------------------------------

    def say(self, message_id: str, **params: Any) -> Message:
        """The message ``message_id`` (a key of :data:`MESSAGES`) filled with ``params``."""
        return Message.make(message_id, MESSAGES[message_id], **params)

    def message(self, event: Event, names: Sequence[str], seat: int | None) -> Message | None:
        """One log line of ``event`` as ``seat`` reads it (``None``: not worth a line)."""
        d = event.data
        t = event.type
        actor = d.get("seat")
        you = isinstance(actor, int) and actor == seat
        suffix = ".you" if you else ""
        player = self.name(names, actor) if isinstance(actor, int) else ""
        if t == "reveal":
            last = ".last" if int(d["deck_left"]) == 0 else ""
            card = card_label(d["card"])
            return self.say(
                f"apache.reveal{last}{suffix}",
                player=player,
                card=f"the {card}",
                left=d["deck_left"],
            )
        if t == "answered":
            return None if you else self.say("apache.answered", player=player)
        if t == "answer":
            if not you:
                return None
            words = str(d["answer"]).split()
            if words[0] == "claim":
                return self.say(
                    "apache.answer.claim.you", type=words[1], ms=words[2] if len(words) > 2 else 0
                )
            return self.say("apache.answer.pass.you")
        if t in ("claim", "choose"):
            return self.say(f"apache.{t}{suffix}", player=player, type=d["type"])
        if t in ("pass", "revealer"):
            return self.say(f"apache.{t}{suffix}", player=player)
        if t == "window_closed":
            queue = d["queue"]
            if not queue:
                return self.say("apache.window_closed.none")
            claims = ", ".join(
                f"{self.name(names, q['seat'])}'s {q['type']}"
                + (f" ({q['ms']} ms)" if q.get("ms") is not None else "")
                for q in queue
            )
            return self.say("apache.window_closed", claims=claims)
        if t == "claim_resolved":
            return self._resolved(d, names, player, suffix)
        if t == "game_over":
            outcome = d["outcome"]
            winners = [int(s) for s in outcome.get("winners", ())]
            wins = _and([self.name(names, s) for s in winners]) + (
                " share the win" if len(winners) > 1 else " wins"
            )
            best = int(outcome["scores"][winners[0]]) if winners else 0
            details = outcome.get("details") or [{} for _ in outcome["scores"]]
            standings = "; ".join(
                f"{self.name(names, s)} {_cards(int(score))}"
                + (f" ({details[s]['buffalo']} buffalo)" if "buffalo" in details[s] else "")
                for s, score in enumerate(outcome["scores"])
            )
            return self.say(
                "apache.game_over", winners=wins, score=_cards(best), standings=standings
            )
        return None

    def _resolved(
        self, d: Mapping[str, Any], names: Sequence[str], player: str, suffix: str
    ) -> Message:
        result = str(d["result"])
        common = {"player": player, "type": d["type"], "pile": d["pile"]}
        if result == "won":
            tribute = d.get("tribute") or []
            paid = [f"{k} buffalo from {self.name(names, payer)}" for payer, k in tribute if k]
            if paid:
                return self.say(
                    f"apache.claim_resolved.won.tribute{suffix}",
                    cards=cards_text(d.get("cards", [])),
                    tribute=_and(paid),
                    **common,
                )
            return self.say(
                f"apache.claim_resolved.won{suffix}", cards=cards_text(d.get("cards", [])), **common
            )
        if result == "penalty":
            discarded = d.get("discarded") or []
            if not discarded:
                return self.say(f"apache.claim_resolved.penalty.none{suffix}", **common)
            return self.say(
                f"apache.claim_resolved.penalty{suffix}", discarded=cards_text(discarded), **common
            )
        return self.say(f"apache.claim_resolved.starved{suffix}", **common)

    # ----- the legend ----------------------------------------------------------------------

    def legend(self) -> list[LegendEntry]:
        """Every code and colour the display uses."""
        entries = [
            LegendEntry(f"{code} {colour}", f"the {colour} tribe's colour")
            for colour, code in _PALETTE.items()
        ]
        entries += [
            LegendEntry("?C", "a chief of colour ? (claims the totem poles and a prisoner)"),
            LegendEntry("?M", "a maiden of colour ? (claims the necklaces)"),
            LegendEntry("?W", "a warrior of colour ? (claims the tomahawks)"),
            LegendEntry("?H", "a hunter of colour ? (claims the buffalo)"),
            LegendEntry("BUF", "buffalo (a hunter's booty)"),
            LegendEntry("NEC", "necklace (a maiden's booty)"),
            LegendEntry("TOM", "tomahawk (a warrior's booty)"),
            LegendEntry("TOT", "totem pole (a chief's booty)"),
            LegendEntry("TEE", "teepee (any Indian may take all of them instead)"),
            LegendEntry("yours", "an Indian of your colour: you may claim with its type"),
            LegendEntry("neutral", "an Indian of a colour nobody plays"),
            LegendEntry("penalty if played", "a claim with this card now costs two pile cards"),
            LegendEntry("ms", "reaction time of a claim: the fastest claim is resolved first"),
            LegendEntry(">", "the player to act"),
        ]
        return entries


def render(state: ApacheState, seat: int | None) -> str:
    """``state.render(seat)``: the plain text of the presenter's display for ``seat``.

    Players are named ``seat 0``, ``seat 1``, …; at a choice the options are listed.
    """
    from .game import GAME

    names = [f"seat {s}" for s in range(state.num_players)]
    legal = state.legal_actions(seat) if seat is not None and seat in state.seats_to_act() else []
    display = ApachePresenter(GAME).display(state.view(seat), legal, names)
    return render_text(
        display,
        actions=bool(legal)
        and display.status != "Game over"
        and state.view(None)["phase"] == "choose",
    )
