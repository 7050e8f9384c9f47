"""How Apache looks and speaks to a person: display models, log lines and a legend.

Built only from a seat's view, its legal actions and the events it may see (``campfire.core.
present``). Cards are named in plain words (``red hunter``, ``buffalo``); each colour has a
palette name and a letter (R, Y, P, G, B), so it reads without seeing colours. During a
reaction poll the other seats' answers stay hidden: the display says only that they answered.
Every word shown, the card names and colours inserted into sentences too, is a text of
:data:`MESSAGES` made in the language in force (:func:`campfire.core.present.text`).

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
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from campfire.core import Action, Event
from campfire.core.outcome import tied_groups
from campfire.core.present import (
    ActionChoice,
    Answer,
    CardFace,
    Display,
    KeptParts,
    LegendEntry,
    Message,
    PlayerPanel,
    Presenter,
    StepDisplay,
    ViewHeader,
    Zone,
    and_list,
    current_translator,
    render_text,
    text,
)

from .actions import ApacheAction
from .cards import COLOUR_CODES, COLOURS, TYPES, card_name
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
    # words inserted into the sentences: colours, types, cards, counted booty (apache §1)
    "apache.colour.red": "red",
    "apache.colour.yellow": "yellow",
    "apache.colour.purple": "purple",
    "apache.colour.green": "green",
    "apache.colour.blue": "blue",
    "apache.type.chief": "chief",
    "apache.type.maiden": "maiden",
    "apache.type.warrior": "warrior",
    "apache.type.hunter": "hunter",
    "apache.card.indian": "{colour} {type}",
    "apache.card.totem": "totem pole",
    "apache.card.necklace": "necklace",
    "apache.card.tomahawk": "tomahawk",
    "apache.card.buffalo": "buffalo",
    "apache.card.teepee": "teepee",
    "apache.card.the": "the {card}",
    "apache.count.totem": "{count} totem poles",
    "apache.count.totem.one": "1 totem pole",
    "apache.count.necklace": "{count} necklaces",
    "apache.count.necklace.one": "1 necklace",
    "apache.count.tomahawk": "{count} tomahawks",
    "apache.count.tomahawk.one": "1 tomahawk",
    "apache.count.buffalo": "{count} buffalo",
    "apache.count.buffalo.one": "1 buffalo",
    "apache.count.teepee": "{count} teepees",
    "apache.count.teepee.one": "1 teepee",
    "apache.cards.none": "nothing",
    "apache.cards": "{count} cards",
    "apache.cards.one": "1 card",
    "apache.claimer": "{player}'s {type}",
    "apache.claimer.ms": "{claim} ({ms} ms)",
    "apache.tribute": "{count} buffalo from {player}",
    "apache.tribute.one": "1 buffalo from {player}",
    "apache.winners": "{players} wins",
    "apache.winners.shared": "{players} share the win",
    "apache.standing": "{player} {score}",
    "apache.standing.buffalo": "{player} {score} ({count} buffalo)",
    "apache.standing.buffalo.one": "{player} {score} (1 buffalo)",
    # status lines
    "apache.status.start": "Apache — {count} cards face down",
    "apache.status.window": "Card {window} — {count} cards still face down",
    "apache.status.window.one": "Card {window} — 1 card still face down",
    "apache.status.last": "Card {window} — the last card is up: the final claim",
    "apache.status.over": "Game over",
    # zones, notes, marks and facts
    "apache.zone.deck": "Prairie deck",
    "apache.zone.table": "Table",
    "apache.zone.hand": "Your hand cards",
    "apache.zone.pile": "{player}'s victory pile",
    "apache.zone.pile.you": "Your victory pile",
    "apache.zone.discarded": "Out of the game (penalties)",
    "apache.zone.board": "Pow-Wow board",
    "apache.note.neutral": "neutral colours: {colours}",
    "apache.hand.card": "your {type}",
    "apache.mark.yours": "yours",
    "apache.mark.neutral": "neutral",
    "apache.mark.owner": "{player}'s",
    "apache.mark.can_claim": "can claim",
    "apache.mark.penalty": "penalty if played",
    "apache.mark.resolved": "resolved",
    "apache.mark.choosing": "choosing",
    "apache.mark.waiting": "waiting",
    "apache.mark.ms": "{ms} ms",
    "apache.mark.not_allowed": "not allowed",
    "apache.fact.top": "top of pile",
    "apache.fact.poll": "poll",
    "apache.fact.poll.answered": "answered",
    "apache.fact.poll.pass": "passes",
    "apache.fact.poll.claim": "claims with the {type}",
    "apache.fact.role": "role",
    "apache.fact.role.revealer": "turns up the next card",
    "apache.score.winner": "{score}, winner",
    # progress
    "apache.progress.answers": "{answered} of {players} players have answered",
    "apache.progress.claim": "claim {number} of {count}",
    # prompts
    "apache.prompt.over": "The game is over.",
    "apache.prompt.reveal": "Turn up the next prairie card.",
    "apache.prompt.claim": "The {card} is up: claim with one of your hand cards, or pass.",
    "apache.prompt.claim.reaction": (
        "The {card} is up: claim with one of your hand cards and how fast, or pass."
    ),
    "apache.prompt.choose": "Choose what your {type} takes.",
    "apache.wait.reveal": "Wait for {players} to turn up the next card.",
    "apache.wait.answer": "Wait for {players} to answer.",
    "apache.wait": "Wait.",
    "apache.wait.choose": "Wait for {players} to choose what the {type} takes.",
    # the result
    "apache.result": "{player} ({colour}): {score} ({cards})",
    "apache.result.winner": "{player} ({colour}): {score} ({cards}) — winner",
    # the letters on the cards (corners, the big value, codes): each language's own initials
    "apache.letter.chief": "C",
    "apache.letter.maiden": "M",
    "apache.letter.warrior": "W",
    "apache.letter.hunter": "H",
    "apache.letter.red": "R",
    "apache.letter.yellow": "Y",
    "apache.letter.purple": "P",
    "apache.letter.green": "G",
    "apache.letter.blue": "B",
    "apache.result.tie": "{players} tie on {score}: Apache has no tie-break, they share the place.",
    "apache.result.rule": (
        "Every card in the pile is a point; the most cards win, ties share the win."
    ),
    # action labels
    "apache.action.reveal": "Turn up the next prairie card",
    "apache.action.pass": "Pass: claim nothing this time",
    "apache.action.claim": "Claim with your {type}",
    "apache.action.claim.penalty": "Claim with your {type} (not allowed now: a penalty)",
    "apache.action.claim.ms": "Claim with your {type} after {ms} ms",
    "apache.action.claim.ms.penalty": (
        "Claim with your {type} after {ms} ms (not allowed now: a penalty)"
    ),
    "apache.action.booty.totem": "Take all the totem poles ({count})",
    "apache.action.booty.necklace": "Take all the necklaces ({count})",
    "apache.action.booty.tomahawk": "Take all the tomahawks ({count})",
    "apache.action.booty.buffalo": "Take all the buffalo ({count})",
    "apache.action.teepees": "Take all the teepees ({count})",
    "apache.action.prisoner": "Take the totem poles and the {card} as prisoner",
    "apache.action.marry": "Marry the {card} and take the teepees",
    # the legend
    "apache.legend.colour": "the {colour} tribe's colour",
    "apache.legend.chief": "a chief of colour ? (claims the totem poles and a prisoner)",
    "apache.legend.maiden": "a maiden of colour ? (claims the necklaces)",
    "apache.legend.warrior": "a warrior of colour ? (claims the tomahawks)",
    "apache.legend.hunter": "a hunter of colour ? (claims the buffalo)",
    "apache.legend.buffalo": "buffalo (a hunter's booty)",
    "apache.legend.necklace": "necklace (a maiden's booty)",
    "apache.legend.tomahawk": "tomahawk (a warrior's booty)",
    "apache.legend.totem": "totem pole (a chief's booty)",
    "apache.legend.teepee": "teepee (any Indian may take all of them instead)",
    "apache.legend.yours": "an Indian of your colour: you may claim with its type",
    "apache.legend.neutral": "an Indian of a colour nobody plays",
    "apache.legend.penalty": "a claim with this card now costs two pile cards",
    "apache.legend.ms": "reaction time of a claim: the fastest claim is resolved first",
    "apache.legend.to_act": "the player to act",
}

_PALETTE = dict(zip(COLOURS, COLOUR_CODES, strict=True))
_BOOTY_SHORT = {
    "totem": "TOT",
    "necklace": "NEC",
    "tomahawk": "TOM",
    "buffalo": "BUF",
    "teepee": "TEE",
}
_BOOTY_OF = {"chief": "totem", "maiden": "necklace", "warrior": "tomahawk", "hunter": "buffalo"}


def _text(message_id: str, **params: Any) -> str:
    """The text ``message_id`` (a key of :data:`MESSAGES`) in the language in force."""
    return text(message_id, MESSAGES[message_id], **params)


def _counted(message_id: str, count: int, **params: Any) -> str:
    """A counted text: ``<id>.one`` for one, ``<id>`` with ``count`` otherwise."""
    if count == 1:
        return _text(message_id + ".one", **params)
    return _text(message_id, count=count, **params)


def colour_label(colour: str) -> str:
    """A colour in words (``red``), in the language in force."""
    return _text(f"apache.colour.{colour}")


def type_label(kind: str) -> str:
    """An Indian type in words (``hunter``), in the language in force."""
    return _text(f"apache.type.{kind}")


def card_label(card: str) -> str:
    """A card in plain words: ``red-hunter`` → ``red hunter``, ``totem`` → ``totem pole``."""
    if "-" in card:
        colour, kind = card.split("-", 1)
        return _text("apache.card.indian", colour=colour_label(colour), type=type_label(kind))
    return _text(f"apache.card.{card}")


def _letter(name: str | None) -> str:
    """The letter of a colour or an Indian type on the cards, in the language in force.

    ``hunter`` → ``H`` (Hungarian ``V``, vadász); ``?`` for no known colour.
    """
    key = f"apache.letter.{name}"
    return _text(key) if key in MESSAGES else "?"


def card_short(card: str) -> str:
    """A card's code: ``RH`` (red hunter), ``GW``, ``BUF`` (buffalo), ``TEE`` (teepee)."""
    if "-" in card:
        colour, kind = card.split("-", 1)
        return _letter(colour) + _letter(kind)
    return _BOOTY_SHORT.get(card, card[:4].upper())


def card_art(card: str) -> tuple[str, str | None]:
    """A card's pictogram and the value shown big: ``red-hunter`` → ``("hunter", "H")``.

    Booty shows its own pictogram alone (``totem`` → ``("totem", None)``); the icon names are
    the user interfaces' (``docs/web.md``, "Card faces").
    """
    if "-" in card:
        kind = card.split("-", 1)[1]
        return kind, _letter(kind)
    return card, None


def _face(
    card_id: str, card: str, marks: tuple[str, ...] = (), owner: int | None = None
) -> CardFace:
    """The face of ``card`` at ``card_id``: label, code, colour, pictogram and owner."""
    colour, symbol = _colour(card)
    icon, rank = card_art(card)
    return CardFace(
        card_id,
        card_label(card),
        card_short(card),
        True,
        colour,
        symbol,
        marks=marks,
        icon=icon,
        rank=rank,
        owner=owner,
    )


def _colour(card: str) -> tuple[str | None, str | None]:
    if "-" not in card:
        return None, None
    colour = card.split("-", 1)[0]
    return colour, _letter(colour)


def cards_text(cards: Sequence[str]) -> str:
    """Cards in plain words: Indians one by one, then booty counted.

    >>> cards_text(["red-hunter", "buffalo", "buffalo", "teepee"])
    'red hunter, 2 buffalo, 1 teepee'
    """
    if not cards:
        return _text("apache.cards.none")
    indians = [card_label(c) for c in cards if "-" in c]
    counts: dict[str, int] = {}
    for c in cards:
        if "-" not in c:
            counts[c] = counts.get(c, 0) + 1
    booty = [_counted(f"apache.count.{c}", k) for c, k in counts.items()]
    return ", ".join(indians + booty)


def _cards(n: int) -> str:
    return _counted("apache.cards", n)


#: parts of display models already made (the table, the piles, the board, the panels, the
#: claim choices), by everything each is made from and the language: most are the same in every
#: seat's display, and a claim window offers every type at every reaction time (about 160
#: choices per seat and frame)
_KEPT = KeptParts()
_kept = _KEPT.get


def _table_face(i: int, card: str, whose: tuple[str, ...], owner: int | None) -> CardFace:
    """Table card ``i`` with its mark, and the seat whose colour it is (``owner``).

    ``whose``: ``("yours",)``, ``("neutral",)``, ``("owner", name)`` or ``()`` (booty).
    """
    marks: tuple[str, ...] = ()
    if whose == ("yours",):
        marks = (_text("apache.mark.yours"),)
    elif whose == ("neutral",):
        marks = (_text("apache.mark.neutral"),)
    elif whose:
        marks = (_text("apache.mark.owner", player=whose[1]),)
    return _face(f"table:{i}", card, marks, owner)


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
        head = ViewHeader.of(view)
        me, n, over = head.seat, head.players, head.over
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
            return _text("apache.status.over")
        left = int(view["deck_left"])
        if view["window"] == 0:
            return _text("apache.status.start", count=left)
        if view["last_card"]:
            return _text("apache.status.last", window=view["window"])
        return _counted("apache.status.window", left, window=view["window"])

    def _zones(self, view: ApacheView, me: int | None, names: Sequence[str]) -> tuple[Zone, ...]:
        colours = tuple(view["colours"])
        mine = colours[me] if me is not None else None
        tr = current_translator()
        # every part is kept by what it is made from (_kept): the same inputs, the same object
        owners = tuple(self.name(names, s) for s in range(len(colours)))
        table = (tuple(view["table"]), mine, colours, tuple(view["neutral_colours"]), owners)
        zones = [
            Zone("deck", _text("apache.zone.deck"), "hidden", count=int(view["deck_left"])),
            _kept(("table", tr, *table), partial(self._table, tr, *table)),
        ]
        if me is not None:
            protect = view.get("protect_me")
            safe = tuple(bool(protect[t]) for t in TYPES) if protect is not None else None
            hand = ("hand", tr, me, mine, safe)
            zones.append(_kept(hand, partial(self._hand, me, str(mine), safe)))
        queue = tuple(tuple(sorted(claim.items())) for claim in view["queue"])
        board = ("board", tr, queue, view["resolved"], tuple(view["answers"]), colours, owners)
        zones.append(_kept(board, partial(self._board, view, names)))
        for s, pile in enumerate(view["piles"]):
            made = (s, s == me, owners[s], tuple(pile))
            zones.append(_kept(("pile", tr, *made), partial(self._pile, *made)))
        discarded = view["discarded"]
        zones.append(
            Zone(
                "discarded",
                _text("apache.zone.discarded"),
                "counter",
                count=len(discarded),
                note=cards_text(discarded) if discarded else "",
            )
        )
        return tuple(zones)

    @staticmethod
    def _hand(me: int, mine: str, safe: tuple[bool, ...] | None) -> Zone:
        """The reader's hand: one Indian of each type in its colour (``safe``: protect me)."""
        hand = []
        for i, t in enumerate(TYPES):
            card = f"{mine}-{t}"
            hand_marks: tuple[str, ...] = ()
            if safe is not None:
                key = "apache.mark.can_claim" if safe[i] else "apache.mark.penalty"
                hand_marks = (_text(key),)
            icon, rank = card_art(card)
            hand.append(
                CardFace(
                    f"hand:{t}",
                    _text("apache.hand.card", type=type_label(t)),
                    card_short(card),
                    True,
                    mine,
                    _letter(mine),
                    marks=hand_marks,
                    icon=icon,
                    rank=rank,
                    owner=me,
                )
            )
        return Zone("hand", _text("apache.zone.hand"), "row", tuple(hand), owner=me)

    @staticmethod
    def _table(
        tr: object,
        cards: tuple[str, ...],
        mine: str | None,
        colours: tuple[str, ...],
        neutral_colours: tuple[str, ...],
        owners: tuple[str, ...],
    ) -> Zone:
        """The cards on the table, each marked as the reader's, neutral or another's colour."""
        neutral = set(neutral_colours)
        table = []
        for i, card in enumerate(cards):
            colour = _colour(card)[0]
            whose: tuple[str, ...] = ()  # the card's mark: yours, neutral, or its owner's
            seat = colours.index(colour) if colour in colours else None
            if colour is not None and colour == mine:
                whose = ("yours",)
            elif colour in neutral:
                whose = ("neutral",)
            elif seat is not None:
                whose = ("owner", owners[seat])
            # a card's face is the same for every reader but the card's owner: kept on its own
            made = partial(_table_face, i, card, whose, seat)
            table.append(_kept(("face", tr, i, card, whose, seat), made))
        note = ""
        if neutral:
            words = ", ".join(colour_label(c) for c in neutral_colours)
            note = _text("apache.note.neutral", colours=words)
        return Zone("table", _text("apache.zone.table"), "row", tuple(table), note=note)

    @staticmethod
    def _pile(s: int, yours: bool, who: str, pile: tuple[str, ...]) -> Zone:
        """Seat ``s``'s pile of booty (``yours``: the reader's own)."""
        faces = [_face(f"pile:{s}:{i}", card, owner=s) for i, card in enumerate(pile)]
        return Zone(
            f"pile:{s}",
            _text("apache.zone.pile" + (".you" if yours else ""), player=who),
            "stack",
            tuple(faces),
            owner=s,
            count=len(pile),
            note=cards_text(pile) if pile else "",
        )

    def _board(self, view: ApacheView, names: Sequence[str]) -> Zone:
        """The Pow-Wow board: the claims of the window (public ones only)."""
        faces = []
        colours = view["colours"]
        if view["queue"]:
            done = int(view["resolved"])
            for i, claim in enumerate(view["queue"]):
                s = int(claim["seat"])
                state = "resolved" if i < done else ("choosing" if i == done else "waiting")
                marks = [_text(f"apache.mark.{state}")]
                if claim["ms"] is not None:
                    marks.append(_text("apache.mark.ms", ms=claim["ms"]))
                if not claim["legal"]:
                    marks.append(_text("apache.mark.not_allowed"))
                colour = colours[s]
                face = _face(f"board:{i}", f"{colour}-{claim['type']}", tuple(marks), s)
                faces.append(replace(face, label=self._claim_by(names, s, claim["type"])))
        else:
            for s, answer in enumerate(view["answers"]):
                if isinstance(answer, str) and answer.startswith("claim"):
                    kind = answer.split()[1]
                    face = _face(f"board:{s}", f"{colours[s]}-{kind}", owner=s)
                    faces.append(replace(face, label=self._claim_by(names, s, kind)))
        return Zone("board", _text("apache.zone.board"), "row", tuple(faces))

    def _claim_by(self, names: Sequence[str], seat: int, kind: str) -> str:
        """A claim as the board and the log name it: ``Ann's hunter``."""
        return _text("apache.claimer", player=self.name(names, seat), type=type_label(kind))

    def _players(
        self, view: ApacheView, me: int | None, names: Sequence[str]
    ) -> tuple[PlayerPanel, ...]:
        to_act = set(view["to_act"])
        winners = view["outcome"]["winners"] if "outcome" in view else []
        tr, reveal = current_translator(), view["phase"] == "reveal"
        panels = []
        for s, pile in enumerate(view["piles"]):
            key = (
                "panel",
                tr,
                s,
                self.name(names, s),
                pile[-1] if pile else None,
                view["answers"][s],
                reveal and s == view["revealer"],
                int(view["scores"][s]),
                s in winners,
                view["colours"][s],
                s in to_act,
                s == me,
            )
            panels.append(_kept(key, partial(self._panel, *key[2:])))
        return tuple(panels)

    @staticmethod
    def _panel(
        s: int,
        who: str,
        top: str | None,
        answer: str | None,
        revealer: bool,
        cards: int,
        winner: bool,
        colour: str,
        acting: bool,
        you: bool,
    ) -> PlayerPanel:
        """Seat ``s``'s panel: the top of its pile, its answer to the poll, its role, score."""
        facts: list[tuple[str, str]] = []
        if top is not None:
            facts.append((_text("apache.fact.top"), card_label(top)))
        poll = _text("apache.fact.poll")
        if answer == "hidden":
            facts.append((poll, _text("apache.fact.poll.answered")))
        elif answer == "pass":
            facts.append((poll, _text("apache.fact.poll.pass")))
        elif isinstance(answer, str):
            kind = type_label(answer.split()[1])
            facts.append((poll, _text("apache.fact.poll.claim", type=kind)))
        if revealer:
            facts.append((_text("apache.fact.role"), _text("apache.fact.role.revealer")))
        score = _cards(cards)
        if winner:
            score = _text("apache.score.winner", score=score)
        return PlayerPanel(s, who, score, tuple(facts), colour, _letter(colour), acting, you)

    def _progress(self, view: ApacheView) -> str:
        if view["phase"] == "claim":
            answered = sum(a is not None for a in view["answers"])
            return _text("apache.progress.answers", answered=answered, players=view["players"])
        if view["phase"] == "choose" and view["queue"]:
            return _text(
                "apache.progress.claim", number=int(view["resolved"]) + 1, count=len(view["queue"])
            )
        return ""

    def _prompt(self, view: ApacheView, me: int | None, names: Sequence[str]) -> str:
        phase = view["phase"]
        to_act = [int(s) for s in view["to_act"]]
        who = and_list([self.name(names, s) for s in to_act])
        if phase == "game_over":
            return _text("apache.prompt.over")
        if phase == "reveal":
            if me in to_act:
                return _text("apache.prompt.reveal")
            return _text("apache.wait.reveal", players=who)
        if phase == "claim":
            if me not in to_act:
                return _text("apache.wait.answer", players=who) if to_act else _text("apache.wait")
            card = card_label(view["table"][-1]) if view["table"] else "?"
            # the reader says how fast in turns; in real time the server measures it
            timed = view["claim_order"] == "reaction" and self.play_mode != "realtime-claims"
            speed = ".reaction" if timed else ""
            return _text(f"apache.prompt.claim{speed}", card=card)
        claim = view["queue"][int(view["resolved"])] if view["queue"] else {"type": "hunter"}
        kind = type_label(str(claim["type"]))
        if me in to_act:
            return _text("apache.prompt.choose", type=kind)
        return _text("apache.wait.choose", players=who, type=kind)

    def _result(self, view: ApacheView, names: Sequence[str]) -> tuple[str, ...]:
        winners = view["outcome"]["winners"] if "outcome" in view else []
        lines = []
        for s, pile in enumerate(view["piles"]):
            lines.append(
                _text(
                    "apache.result" + (".winner" if s in winners else ""),
                    player=self.name(names, s),
                    colour=colour_label(view["colours"][s]),
                    score=_cards(len(pile)),
                    cards=cards_text(pile),
                )
            )
        for group in tied_groups([len(pile) for pile in view["piles"]]):
            players = and_list([self.name(names, s) for s in group])
            score = _cards(len(view["piles"][group[0]]))
            lines.append(_text("apache.result.tie", players=players, score=score))
        lines.append(_text("apache.result.rule"))
        return tuple(lines)

    def _choice(
        self, action: ApacheAction, view: ApacheView, n: int, table: Mapping[str, str]
    ) -> ActionChoice:
        kind = action.kind
        if kind == "reveal":
            label = _text("apache.action.reveal")
            return self.choice(action, n, label, "deck", group="reveal", key="reveal")
        if kind == "pass":
            label = _text("apache.action.pass")
            return self.choice(action, n, label, group="pass", key="pass")
        if kind == "claim":
            t = TYPES[action.type]
            protect = view.get("protect_me")
            penalty = protect is not None and not protect[t]
            key = ("claim", current_translator(), action, n, penalty)
            made: ActionChoice = _kept(key, partial(self._claim, action, n, t, penalty))
            return made
        claim = view["queue"][int(view["resolved"])] if view["queue"] else {"type": "hunter"}
        ctype = str(claim["type"])
        if kind == "booty":
            booty = _BOOTY_OF[ctype]
            k = view["table"].count(booty)
            return self.choice(
                action,
                n,
                _text(f"apache.action.booty.{booty}", count=k),
                table.get(booty),
                group="choose",
                key="booty",
            )
        if kind == "teepees":
            k = view["table"].count("teepee")
            return self.choice(
                action,
                n,
                _text("apache.action.teepees", count=k),
                table.get("teepee"),
                group="choose",
                key="teepees",
            )
        card = card_name(action.card)
        verb = "prisoner" if kind == "prisoner" else "marry"
        label = _text(f"apache.action.{verb}", card=card_label(card))
        return self.choice(action, n, label, table.get(card), group="choose", key=card)

    def _claim(self, action: ApacheAction, n: int, t: str, penalty: bool) -> ActionChoice:
        """A claim; a timed one is a variant of the untimed answer, its delay as a number."""
        mid = "apache.action.claim" + (".penalty" if penalty else "")
        target, group = f"hand:{t}", f"claim {t}"
        if action.ms < 0:
            label = _text(mid, type=type_label(t))
            return self.choice(action, n, label, target, group=group, key=t, penalised=penalty)
        answer = _kept(
            ("answer", current_translator(), t, penalty),
            lambda: Answer(f"claim {t}", _text(mid, type=type_label(t)), t),
        )
        label = _text(mid.replace("claim", "claim.ms", 1), type=type_label(t), ms=action.ms)
        return self.choice(
            action,
            n,
            label,
            target,
            group=group,
            key=f"{t} {action.ms}",
            answer=answer,
            delay_ms=action.ms,
            penalised=penalty,
        )

    # ----- what a step changed ---------------------------------------------------------------

    def changes(self, events: Sequence[Event], seat: int | None) -> StepDisplay:
        """The zones a step changed: the deck and table on a reveal, the board, the piles."""
        changed: list[str] = []
        for event in events:
            kind, d = event.type, event.data
            if kind == "reveal":
                changed.extend(("deck", "table"))
            elif kind in ("claim", "window_closed"):
                changed.append("board")
            elif kind == "claim_resolved":
                changed.extend(("table", "board", f"pile:{d['seat']}"))
                for payer, _paid in d.get("tribute", ()):
                    changed.append(f"pile:{payer}")
                if d.get("discarded"):
                    changed.append("discarded")
        return StepDisplay(tuple(dict.fromkeys(changed)))

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
                card=_text("apache.card.the", card=card),
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
                    "apache.answer.claim.you",
                    type=type_label(words[1]),
                    ms=words[2] if len(words) > 2 else 0,
                )
            return self.say("apache.answer.pass.you")
        if t in ("claim", "choose"):
            return self.say(f"apache.{t}{suffix}", player=player, type=type_label(d["type"]))
        if t in ("pass", "revealer"):
            return self.say(f"apache.{t}{suffix}", player=player)
        if t == "window_closed":
            queue = d["queue"]
            if not queue:
                return self.say("apache.window_closed.none")
            claims = ", ".join(
                _text("apache.claimer.ms", claim=self._claim_by(names, q["seat"], q["type"]), ms=ms)
                if (ms := q.get("ms")) is not None
                else self._claim_by(names, q["seat"], q["type"])
                for q in queue
            )
            return self.say("apache.window_closed", claims=claims)
        if t == "claim_resolved":
            return self._resolved(d, names, player, suffix)
        if t == "game_over":
            outcome = d["outcome"]
            winners = [int(s) for s in outcome.get("winners", ())]
            wins = _text(
                "apache.winners" + (".shared" if len(winners) > 1 else ""),
                players=and_list([self.name(names, s) for s in winners]),
            )
            best = int(outcome["scores"][winners[0]]) if winners else 0
            details = outcome.get("details") or [{} for _ in outcome["scores"]]
            standings = "; ".join(
                _counted(
                    "apache.standing.buffalo",
                    int(details[s]["buffalo"]),
                    player=self.name(names, s),
                    score=_cards(int(score)),
                )
                if "buffalo" in details[s]
                else _text("apache.standing", player=self.name(names, s), score=_cards(int(score)))
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
        common = {"player": player, "type": type_label(d["type"]), "pile": d["pile"]}
        if result == "won":
            tribute = d.get("tribute") or []
            paid = [
                _counted("apache.tribute", k, player=self.name(names, payer))
                for payer, k in tribute
                if k
            ]
            if paid:
                return self.say(
                    f"apache.claim_resolved.won.tribute{suffix}",
                    cards=cards_text(d.get("cards", [])),
                    tribute=and_list(paid),
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
            LegendEntry(
                f"{_letter(colour)} {colour_label(colour)}",
                _text("apache.legend.colour", colour=colour_label(colour)),
            )
            for colour in _PALETTE
        ]
        entries += [
            LegendEntry(symbol, _text(f"apache.legend.{key}"))
            for symbol, key in (
                ("?" + _letter("chief"), "chief"),
                ("?" + _letter("maiden"), "maiden"),
                ("?" + _letter("warrior"), "warrior"),
                ("?" + _letter("hunter"), "hunter"),
                ("BUF", "buffalo"),
                ("NEC", "necklace"),
                ("TOM", "tomahawk"),
                ("TOT", "totem"),
                ("TEE", "teepee"),
            )
        ]
        # the marks, as the display shows them in the language in force
        entries += [
            LegendEntry(_text("apache.mark.yours"), _text("apache.legend.yours")),
            LegendEntry(_text("apache.mark.neutral"), _text("apache.legend.neutral")),
            LegendEntry(_text("apache.mark.penalty"), _text("apache.legend.penalty")),
            LegendEntry("ms", _text("apache.legend.ms")),
            LegendEntry(">", _text("apache.legend.to_act")),
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
        actions=bool(legal) and not display.over and state.view(None)["phase"] == "choose",
    )
