"""How Big Manitou looks and speaks to a person: display models, log lines and a legend.

Built only from a seat's view, its legal actions and the events it may see (``campfire.core.
present``). Cards are named in the game's words: ``hunter 7``, ``chief``; tiles ``tipi ×3``,
``buffalo ×2``, ``totem``. A face-down hero keeps its name (everyone saw it played, manitou §9).
Every word shown, the card and tile names inserted into sentences too, is a text of
:data:`MESSAGES` made in the language in force (:func:`campfire.core.present.text`).

>>> import campfire
>>> game = campfire.get_game("manitou")
>>> state = game.new_game(2, seed=1)
>>> display = game.presenter().display(state.view(0), state.legal_actions(0), ["Ann", "Bob"])
>>> display.status, display.prompt
('Hunt 1 of 4 — choosing cards', 'Choose 8 cards for your hunting deck, one at a time.')
>>> display.actions[0].label, display.actions[0].target
('Choose the hunter 1', 'pool:h1')
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

from .actions import K_LOSE, K_MOVE, K_PASS, K_PICK, K_PLAY, K_TAKE, ManitouAction
from .cards import CARD_NAMES, FULL_POOL, TILE_NAMES
from .types import ManitouView

if TYPE_CHECKING:
    from .state import ManitouState

__all__ = [
    "MESSAGES",
    "ManitouPresenter",
    "breakdown",
    "card_label",
    "card_short",
    "render",
    "tile_label",
    "tile_short",
]

#: Every log line of Big Manitou: message id → English template. A translation replaces the
#: templates by id; ``.you`` ids are the reader's own actions, ``.by_you`` those done to others
#: by the reader's card.
MESSAGES: dict[str, str] = {
    "manitou.hunt_start": (
        "Hunt {hunt} begins: {dealer} deals and {first} plays first; the grounds hold {grounds}."
    ),
    "manitou.hunt_start.you": (
        "Hunt {hunt} begins: you deal and {first} plays first; the grounds hold {grounds}."
    ),
    "manitou.pick": "{player} chooses a card ({count} so far).",
    "manitou.pick_card.you": "You choose the {card}.",
    "manitou.hand.you": "You shuffle your cards into your deck and draw {cards}.",
    "manitou.dealt": "Every deck is shuffled and every hand holds its cards: the play begins.",
    "manitou.play": "{player} plays the {card} at ground {ground}.",
    "manitou.play.you": "You play the {card} at ground {ground}.",
    "manitou.play.totem": "{player} plays the {card} at ground {ground} as the totem's extra card.",
    "manitou.play.totem.you": "You play the {card} at ground {ground} as the totem's extra card.",
    "manitou.hero_down": (
        "{player}'s {card} at ground {ground} is beaten by {other}'s {by} and turned face down."
    ),
    "manitou.hero_down.you": (
        "Your {card} at ground {ground} is beaten by {other}'s {by} and turned face down."
    ),
    "manitou.hero_down.by_you": (
        "{player}'s {card} at ground {ground} is beaten by your {by} and turned face down."
    ),
    "manitou.hero_down.tie": (
        "{player}'s {card} at ground {ground} meets {other}'s {by}, the same hero: it is turned "
        "face down."
    ),
    "manitou.hero_down.tie.you": (
        "Your {card} at ground {ground} meets {other}'s {by}, the same hero: it is turned face "
        "down."
    ),
    "manitou.hero_down.tie.by_you": (
        "{player}'s {card} at ground {ground} meets your {by}, the same hero: it is turned face "
        "down."
    ),
    "manitou.hero_down.sacrifice": (
        "{player}'s {card} at ground {ground} removed {other}'s {by} and is turned face down "
        "with it (a sacrifice)."
    ),
    "manitou.hero_down.sacrifice.you": (
        "Your {card} at ground {ground} removed {other}'s {by} and is turned face down with it "
        "(a sacrifice)."
    ),
    "manitou.draw": "{player} draws a card.",
    "manitou.draw_card.you": "You draw the {card}.",
    "manitou.no_play": "{player} cannot play any card and passes.",
    "manitou.no_play.you": "You cannot play any card and pass.",
    "manitou.play_over": "Everyone has played seven cards.",
    "manitou.totem_pass": "{player} plays no extra card with the totem.",
    "manitou.totem_pass.you": "You play no extra card with the totem.",
    "manitou.horse_pass": "{player} moves no hunter with the horse.",
    "manitou.horse_pass.you": "You move no hunter with the horse.",
    "manitou.horse_move": (
        "{player} rides the horse: the {card} moves from ground {source} to ground {target}."
    ),
    "manitou.horse_move.you": (
        "You ride the horse: your {card} moves from ground {source} to ground {target}."
    ),
    "manitou.thief": (
        "The thief comes. Hunter totals: {sums}; {robbed} has the highest and is robbed."
    ),
    "manitou.thief.you": (
        "The thief comes. Hunter totals: {sums}; you have the highest and are robbed."
    ),
    "manitou.thief.many": (
        "The thief comes. Hunter totals: {sums}; {robbed} have the highest and are robbed one "
        "after the other."
    ),
    "manitou.thief.nobody": "The thief comes, but nobody played a hunter: nobody is robbed.",
    "manitou.robbed": "The thief takes {player}'s {tile}; it leaves the game.",
    "manitou.robbed.you": "The thief takes your {tile}; it leaves the game.",
    "manitou.thief_finds_nothing": "The thief finds no tile at {player}'s.",
    "manitou.thief_finds_nothing.you": "The thief finds no tile of yours.",
    "manitou.take": "{player} takes the {tile} from ground {ground}.",
    "manitou.take.you": "You take the {tile} from ground {ground}.",
    "manitou.piece": "{player} takes the {piece} piece from {holder}.",
    "manitou.piece.you": "You take the {piece} piece from {holder}.",
    "manitou.piece.from_you": "{player} takes the {piece} piece from you.",
    "manitou.piece.first": "{player} takes the {piece} piece.",
    "manitou.piece.first.you": "You take the {piece} piece.",
    "manitou.tiles_removed": "Nobody takes {tiles} at ground {ground}: they leave the game.",
    "manitou.tiles_to_bag": "Nobody takes {tiles} at ground {ground}: they go back into the bag.",
    "manitou.hunt_end": "Hunt {hunt} is over. Points so far: {standings}.",
    "manitou.game_over": "The game is over: {winners} with {score}. Final points: {standings}.",
    # words inserted into the sentences: cards, tiles, pieces, points (manitou §1)
    "manitou.card.hunter": "hunter {strength}",
    "manitou.card.chief": "chief",
    "manitou.card.squaw": "squaw",
    "manitou.card.shaman": "shaman",
    "manitou.card.spy": "spy",
    "manitou.card.healer": "healer",
    "manitou.card.hero": "hero",
    "manitou.card.owned": "{player}'s {card}",
    "manitou.tile.buffalo": "buffalo ×{multiplier}",
    "manitou.tile.tipi": "tipi ×{multiplier}",
    "manitou.tile.horse": "horse",
    "manitou.tile.totem": "totem",
    "manitou.tile.tomahawk": "tomahawk",
    "manitou.tiles.repeat": "{tile} (×{count} tiles)",
    "manitou.tiles.none": "no tiles",
    "manitou.ground_tiles": "ground {ground}: {tiles}",
    "manitou.piece_name.totem": "totem",
    "manitou.piece_name.horse": "horse",
    "manitou.you": "you",
    "manitou.another_player": "another player",
    "manitou.points": "{count} points",
    "manitou.points.one": "1 point",
    "manitou.breakdown.pairs": "{count} tipi–buffalo pairs (tipis {tipis}, buffalo {buffalo})",
    "manitou.breakdown.pairs.one": "1 tipi–buffalo pair (tipis {tipis}, buffalo {buffalo})",
    "manitou.breakdown.totem": "{count} totem tiles",
    "manitou.breakdown.totem.one": "1 totem tile",
    "manitou.breakdown.horse": "{count} horse tiles",
    "manitou.breakdown.horse.one": "1 horse tile",
    "manitou.breakdown.tomahawk": "{count} tomahawk tiles",
    "manitou.breakdown.tomahawk.one": "1 tomahawk tile",
    "manitou.breakdown.pieces": "{count} wooden pieces",
    "manitou.breakdown.pieces.one": "1 wooden piece",
    "manitou.winners": "{players} wins",
    "manitou.winners.shared": "{players} share the win",
    "manitou.standing": "{player} {score} ({breakdown})",
    # status lines
    "manitou.status": "Hunt {hunt} of {hunts} — {stage}",
    "manitou.status.over": "Game over after {hunts} hunts",
    "manitou.stage.select": "choosing cards",
    "manitou.stage.play": "play, round {round} of 7",
    "manitou.stage.totem": "the totem's extra card",
    "manitou.stage.horse": "the horse's move",
    "manitou.stage.thief": "the thief",
    "manitou.stage.take": "sharing the grounds",
    "manitou.stage.sharing": "sharing ground {ground}",
    # zones, notes, marks and facts
    "manitou.zone.ground": "Ground {ground}",
    "manitou.zone.ground_cards": "Ground {ground} cards",
    "manitou.zone.pool": "Cards you may choose",
    "manitou.zone.selection": "Your chosen cards",
    "manitou.zone.hand": "Your hand",
    "manitou.zone.deck": "Your deck",
    "manitou.zone.tiles": "{player}'s tiles",
    "manitou.zone.bag": "Tiles in the bag",
    "manitou.zone.out": "Tiles out of the game",
    "manitou.note.shared": "being shared",
    "manitou.note.deck": "drawn in an unknown order",
    "manitou.mark.face_down": "face down",
    "manitou.fact.role": "role",
    "manitou.fact.role.dealer": "dealer",
    "manitou.fact.role.first": "first player",
    "manitou.fact.chosen": "chosen",
    "manitou.fact.chosen.value": "{done} of {size}",
    "manitou.fact.hand": "hand",
    "manitou.fact.deck": "deck",
    "manitou.fact.hunters": "hunter total",
    "manitou.fact.pieces": "pieces",
    "manitou.fact.used": "used this cycle",
    "manitou.score.winner": "{score}, winner",
    # progress
    "manitou.progress.chosen": "chosen {done} of {size}",
    "manitou.progress.take": "{count} tiles left to take",
    "manitou.progress.take.one": "1 tile left to take",
    # prompts
    "manitou.prompt.over": "The game is over.",
    "manitou.prompt.select": "Choose {count} cards for your hunting deck, one at a time.",
    "manitou.prompt.select.more": "Choose {count} more cards for your hunting deck.",
    "manitou.prompt.select.more.one": "Choose 1 more card for your hunting deck.",
    "manitou.prompt.pass_only": (
        "No card in your hand may be played (two of your heroes at every ground): pass."
    ),
    "manitou.prompt.play": "Play a card from your hand face up at one of the three grounds.",
    "manitou.prompt.totem": "You hold the totem: play one extra card at a ground, or pass.",
    "manitou.prompt.horse": (
        "You hold the horse: move one of your hunters to another ground, or pass."
    ),
    "manitou.prompt.thief": "The thief robs you: choose the tile you give up.",
    "manitou.prompt.share": "At ground {ground} {reason}: choose the tile to take.",
    "manitou.prompt.share.many": (
        "At ground {ground} {reason}: choose the tile to take ({count} to take)."
    ),
    "manitou.reason.hero": "your hero holds the ground",
    "manitou.reason.best_hunter": "you have the strongest hunter there",
    "manitou.reason.second_hunter": "you have the second strongest hunter there",
    "manitou.reason.share": "it is your share",
    "manitou.wait.select": "Wait while the players choose their cards.",
    "manitou.wait.play": "Wait for {players} to play a card.",
    "manitou.wait.totem": "Wait for {players} to use the totem or pass.",
    "manitou.wait.horse": "Wait for {players} to use the horse or pass.",
    "manitou.wait.thief": "Wait for {players} to give a tile to the thief.",
    "manitou.wait.take": "Wait for {players} to take a tile.",
    "manitou.wait": "Wait for {players}.",
    # the result
    "manitou.result": "{player}: {score} ({breakdown})",
    "manitou.result.winner": "{player}: {score} ({breakdown}) — winner",
    # the heroes' codes on the cards (the big letters): each language's own initials
    "manitou.letter.chief": "CH",
    "manitou.letter.squaw": "SQ",
    "manitou.letter.shaman": "SH",
    "manitou.letter.spy": "SP",
    "manitou.letter.healer": "HE",
    "manitou.result.tiebreak.tipis": (
        "{players} tie on {points}; the tie-break, more tipis, puts {leaders} ahead ({counts})."
    ),
    "manitou.result.tiebreak.tile": (
        "{players} tie on {points} and have as many tipis; the next tie-break, the highest "
        "tile, puts {leaders} ahead ({counts})."
    ),
    "manitou.result.tie": (
        "{players} tie on {points}, with as many tipis and as high a best tile: they share "
        "the place."
    ),
    "manitou.result.rule": (
        "The most points win; ties go to the most tipis, then to the highest single tile."
    ),
    # action labels
    "manitou.action.pick": "Choose the {card}",
    "manitou.action.play": "Play the {card} at ground {ground}",
    "manitou.action.play.totem": "Play the {card} at ground {ground} as the totem's extra card",
    "manitou.action.move": "Move your {card} from ground {source} to ground {ground}",
    "manitou.action.move.anywhere": "Move your {card} to ground {ground}",
    "manitou.action.take": "Take the {tile}",
    "manitou.action.lose": "Give up the {tile}",
    "manitou.action.pass": "Pass",
    "manitou.action.pass.play": "Pass: no card may be played",
    "manitou.action.pass.totem": "Play no extra card",
    "manitou.action.pass.horse": "Move no hunter",
    # the legend
    "manitou.legend.hunters": "hunter cards of strength 1 to 10",
    "manitou.legend.chief": "chief (a hero)",
    "manitou.legend.squaw": "squaw (a hero)",
    "manitou.legend.shaman": "shaman, the rain maker (a hero)",
    "manitou.legend.spy": "spy, the scout (a hero)",
    "manitou.legend.healer": "healer, the medicine man (a hero)",
    "manitou.legend.face_down": "a beaten hero: it stays on the ground and counts no more",
    "manitou.legend.buffalo": "buffalo tile counting as 1 … 5 buffalo",
    "manitou.legend.tipi": "tipi tile counting as 1 … 5 tipis",
    "manitou.legend.horse": "horse tile (1 point; the most horse tiles hold the horse piece)",
    "manitou.legend.totem": "totem tile (1 point; the most totem tiles hold the totem piece)",
    "manitou.legend.tomahawk": "tomahawk tile (1 point; +1 to your hunters when sharing)",
    "manitou.legend.grounds": "the three hunting grounds, shared in that order",
    "manitou.legend.hunter_total": "the sum of a player's hunters played this hunt (the thief)",
    "manitou.legend.used": "cards played in the first hunt of the pair (not choosable)",
    "manitou.legend.to_act": "the player to act",
}

_HEROES = {"chief": "CH", "squaw": "SQ", "shaman": "SH", "spy": "SP", "healer": "HE"}


def _text(message_id: str, **params: Any) -> str:
    """The text ``message_id`` (a key of :data:`MESSAGES`) in the language in force."""
    return text(message_id, MESSAGES[message_id], **params)


def _counted(message_id: str, count: int, **params: Any) -> str:
    """A counted text: ``<id>.one`` for one, ``<id>`` with ``count`` otherwise."""
    if count == 1:
        return _text(message_id + ".one", **params)
    return _text(message_id, count=count, **params)


def card_label(card: str) -> str:
    """A card in plain words: ``h7`` → ``hunter 7``; heroes keep their names."""
    if card[:1] == "h" and card[1:].isdigit():
        return _text("manitou.card.hunter", strength=card[1:])
    key = f"manitou.card.{card}"
    return _text(key) if key in MESSAGES else card


def card_short(card: str) -> str:
    """A card's code of at most four characters: ``H7``, ``H10``, ``CH`` (chief), ``SP``."""
    if card in _HEROES:
        return _text(f"manitou.letter.{card}")
    return card.upper()[:4]


#: card faces already made (see :func:`card_face`)
_FACES = KeptParts()

#: the pictogram of each hero and tile (the user interfaces' icon names, ``docs/web.md``)
_HERO_ICONS = {
    "chief": "chief",
    "squaw": "maiden",
    "shaman": "shaman",
    "spy": "spy",
    "healer": "healer",
}
_TILE_ICONS = {"horse": "horse", "totem": "totem", "tomahawk": "tomahawk"}


def card_face(
    card_id: str, card: str, owner: int | None = None, label: str | None = None
) -> CardFace:
    """A face-up card: ``h7`` → a hunter pictogram with 7 big; a hero's pictogram and code.

    Faces are kept by everything they are made from (the same card in the same place is the
    same object from one display to the next).
    """
    key = ("face", current_translator(), card_id, card, owner, label)
    face: CardFace = _FACES.get(key, partial(_card_face, card_id, card, owner, label))
    return face


def _card_face(card_id: str, card: str, owner: int | None, label: str | None) -> CardFace:
    short = card_short(card)
    icon: str | None = _HERO_ICONS.get(card)
    rank = short
    if card[:1] == "h" and card[1:].isdigit():
        icon, rank = "hunter", card[1:]
    return CardFace(
        card_id,
        card_label(card) if label is None else label,
        short,
        icon=icon,
        rank=rank,
        owner=owner,
    )


def tile_face(card_id: str, tile: str, owner: int | None = None) -> CardFace:
    """A tile: ``tipi3`` → a teepee with ×3 big, ``buffalo2`` a buffalo with ×2, ``horse``."""
    icon, rank = _TILE_ICONS.get(tile), None
    for kind, art in (("buffalo", "buffalo"), ("tipi", "teepee")):
        if tile.startswith(kind) and tile[len(kind) :].isdigit():
            icon, rank = art, "×" + tile[len(kind) :]
    return CardFace(card_id, tile_label(tile), tile_short(tile), icon=icon, rank=rank, owner=owner)


def tile_label(tile: str) -> str:
    """A tile in plain words: ``tipi3`` → ``tipi ×3``, ``buffalo1`` → ``buffalo ×1``."""
    for kind in ("buffalo", "tipi"):
        if tile.startswith(kind) and tile[len(kind) :].isdigit():
            return _text(f"manitou.tile.{kind}", multiplier=tile[len(kind) :])
    key = f"manitou.tile.{tile}"
    return _text(key) if key in MESSAGES else tile


def tile_short(tile: str) -> str:
    """A tile's code: ``T3`` (tipi ×3), ``B2`` (buffalo ×2), ``HO``, ``TO``, ``TK``."""
    if tile.startswith("buffalo"):
        return "B" + tile[7:]
    if tile.startswith("tipi"):
        return "T" + tile[4:]
    return {"horse": "HO", "totem": "TO", "tomahawk": "TK"}.get(tile, tile[:4].upper())


def _tiles_text(tiles: Sequence[str]) -> str:
    """Tiles in plain words, equal ones counted: ``tipi ×3, buffalo ×1 (×2 tiles)``."""
    if not tiles:
        return _text("manitou.tiles.none")
    counts: dict[str, int] = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    return ", ".join(
        _text("manitou.tiles.repeat", tile=tile_label(t), count=n) if n > 1 else tile_label(t)
        for t, n in counts.items()
    )


def _points(score: float) -> str:
    value = int(score) if float(score).is_integer() else score
    if value == 1:
        return _text("manitou.points.one")
    return _text("manitou.points", count=value)


def _piece(piece: str) -> str:
    """A wooden piece in words (``totem``, ``horse``)."""
    return _text(f"manitou.piece_name.{piece}")


def breakdown(details: Mapping[str, Any], score: float | None = None) -> str:
    """How a seat's points are made (the outcome's per-seat details), in words.

    With ``score``, totem and horse tiles and the wooden pieces are named as points only where
    they made some (the ``piece_vp`` option decides which count).

    >>> breakdown({"tipis": 4, "buffalo": 5, "pairs": 4, "totem_tiles": 1, "horse_tiles": 0,
    ...            "tomahawk_tiles": 2, "pieces": 1, "highest_tile": 3}, 7)
    '4 tipi–buffalo pairs (tipis 4, buffalo 5), 1 totem tile, 2 tomahawk tiles'
    """
    pairs = int(details.get("pairs", 0))
    totems, horses = int(details.get("totem_tiles", 0)), int(details.get("horse_tiles", 0))
    tomahawks, pieces = int(details.get("tomahawk_tiles", 0)), int(details.get("pieces", 0))
    tiles_count, pieces_count = True, False
    if score is not None:
        rest = int(score) - pairs - tomahawks
        if rest != totems + horses:
            pieces_count = rest in (pieces, totems + horses + pieces)
            tiles_count = rest == totems + horses + pieces
    parts = [
        _counted(
            "manitou.breakdown.pairs",
            pairs,
            tipis=details.get("tipis", 0),
            buffalo=details.get("buffalo", 0),
        )
    ]
    counted = [(totems, "totem"), (horses, "horse")] if tiles_count else []
    for k, word in [*counted, (tomahawks, "tomahawk")]:
        if k:
            parts.append(_counted(f"manitou.breakdown.{word}", k))
    if pieces and pieces_count:
        parts.append(_counted("manitou.breakdown.pieces", pieces))
    return ", ".join(parts)


#: parts of display models already made (the grounds, the tiles, the panels, the choices), by
#: everything each is made from and the language: most are the same in every seat's display
_KEPT = KeptParts()
_kept = _KEPT.get


class ManitouPresenter(Presenter):
    """The presenter of Big Manitou."""

    # ----- the display ---------------------------------------------------------------------

    def display(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> Display:
        """The grounds, the seat's cards, the players and the labelled legal actions."""
        return self._display(cast(ManitouView, view), legal, names)

    def _display(self, view: ManitouView, legal: Sequence[Action], names: Sequence[str]) -> Display:
        head = ViewHeader.of(view)
        me, n, to_act, over = head.seat, head.players, head.to_act, head.over
        zones = self._zones(view, me, names)
        tr = current_translator()
        actions = tuple(
            self._kept_choice(tr, a, view, n) for a in legal if isinstance(a, ManitouAction)
        )
        return Display(
            game=self.game.name,
            seat=me,
            status=self._status(view),
            prompt=self._prompt(view, me, legal, names),
            to_act=to_act,
            players=self._players(view, me, names),
            zones=zones,
            actions=actions,
            progress=self._progress(view, me),
            over=over,
            result=self._result(view, names) if over else (),
        )

    def _status(self, view: ManitouView) -> str:
        phase = str(view["phase"])
        if phase == "game_over":
            return _text("manitou.status.over", hunts=view["hunts"])
        sharing = view.get("sharing")
        if phase == "play":
            n = int(view["players"])
            stage = _text("manitou.stage.play", round=min(int(view["play_turn"]) // n + 1, 7))
        elif phase == "take" and sharing:
            stage = _text("manitou.stage.sharing", ground=sharing["ground"])
        else:
            stage = _text(f"manitou.stage.{phase}")
        return _text("manitou.status", hunt=view["hunt"], hunts=view["hunts"], stage=stage)

    def _zones(self, view: ManitouView, me: int | None, names: Sequence[str]) -> tuple[Zone, ...]:
        zones: list[Zone] = []
        sharing = view.get("sharing")
        shared = sharing["ground"] if sharing is not None else None
        tr = current_translator()
        for g, ground in enumerate(view["grounds"], 1):
            # every part is kept by what it is made from (_kept): the same inputs, the same object
            tiles = tuple(ground["tiles"])
            key = ("tiles", tr, g, tiles, shared == g and view["phase"] == "take")
            zones.append(_kept(key, partial(self._ground_tiles, g, tiles, key[-1])))
            cards = tuple(
                (int(o), self.name(names, int(o)), c, bool(u)) for o, c, u in ground["cards"]
            )
            zones.append(_kept(("cards", tr, g, cards), partial(self._ground_cards, g, cards)))
        you = view.get("you")
        if me is not None and you is not None:
            hand = tuple(card_face(f"hand:{i}", c, me) for i, c in enumerate(you["hand"]))
            if view["phase"] == "select":
                zones.append(self._pool(view, me, you))
                chosen = tuple(
                    card_face(f"chosen:{i}", c, me) for i, c in enumerate(you["selection"])
                )
                label = _text("manitou.zone.selection")
                zones.append(Zone("selection", label, "row", chosen, owner=me))
            elif view["phase"] != "game_over":
                zones.append(Zone("hand", _text("manitou.zone.hand"), "row", hand, owner=me))
                if you["deck"]:
                    deck = tuple(card_face(f"deck:{i}", c, me) for i, c in enumerate(you["deck"]))
                    note = _text("manitou.note.deck")
                    label = _text("manitou.zone.deck")
                    zones.append(Zone("deck", label, "row", deck, owner=me, note=note))
        for s in range(int(view["players"])):
            owned = tuple(view["tiles_owned"][s])
            who = self.name(names, s)
            zones.append(_kept(("owned", tr, s, who, owned), partial(self._owned, s, who, owned)))
        bag = _text("manitou.zone.bag")
        zones.append(Zone("bag", bag, "counter", count=int(view["bag_size"])))
        out = view["out_of_game"]
        zones.append(
            Zone(
                "out",
                _text("manitou.zone.out"),
                "counter",
                count=len(out),
                note=_tiles_text(out) if out else "",
            )
        )
        return tuple(zones)

    @staticmethod
    def _ground_tiles(g: int, tiles: tuple[str, ...], shared: bool) -> Zone:
        """Hunting ground ``g``'s tiles (noted when it is the ground being shared)."""
        faces = tuple(tile_face(f"g{g}:t{i}", t) for i, t in enumerate(tiles))
        note = _text("manitou.note.shared") if shared else ""
        return Zone(f"g{g}", _text("manitou.zone.ground", ground=g), "row", faces, note=note)

    @staticmethod
    def _ground_cards(g: int, cards: tuple[tuple[int, str, str, bool], ...]) -> Zone:
        """The cards on hunting ground ``g``: (owner, owner's name, card, face up) each."""
        faces = []
        for i, (seat, who, card, up) in enumerate(cards):
            label = _text("manitou.card.owned", player=who, card=card_label(card))
            face = card_face(f"g{g}:c{i}", card, seat, label)
            if not up:  # turned face down, but everyone saw it: still named and drawn
                down = (_text("manitou.mark.face_down"),)
                face = replace(face, face_up=False, marks=down)
            faces.append(face)
        label = _text("manitou.zone.ground_cards", ground=g)
        return Zone(f"g{g}:cards", label, "row", tuple(faces))

    @staticmethod
    def _owned(s: int, who: str, owned: tuple[str, ...]) -> Zone:
        """The tiles seat ``s`` (named ``who``) has won."""
        faces = tuple(tile_face(f"tiles:{s}:{i}", t, s) for i, t in enumerate(owned))
        label = _text("manitou.zone.tiles", player=who)
        return Zone(f"tiles:{s}", label, "row", faces, owner=s)

    def _pool(self, view: ManitouView, me: int, you: Mapping[str, Any]) -> Zone:
        """The cards ``me`` may still choose (manitou §4): not used this cycle, not chosen."""
        left = dict(zip(CARD_NAMES, FULL_POOL, strict=True))
        for c in [*view["used_this_cycle"][me], *you["selection"]]:
            left[c] -= 1
        faces = []
        for c in CARD_NAMES:
            for k in range(left[c]):
                faces.append(card_face(f"pool:{c}" + (f":{k + 1}" if k else ""), c, me))
        return Zone("pool", _text("manitou.zone.pool"), "row", tuple(faces), owner=me)

    def _players(
        self, view: ManitouView, me: int | None, names: Sequence[str]
    ) -> tuple[PlayerPanel, ...]:
        n = int(view["players"])
        to_act = set(view["to_act"])
        outcome = view.get("outcome")
        scores = outcome["scores"] if outcome else view.get("scores")
        sums = [0] * n
        for ground in view["grounds"]:
            for owner, card, _ in ground["cards"]:
                if card[:1] == "h" and card[1:].isdigit():  # a hunter (not the healer)
                    sums[int(owner)] += int(card[1:])
        tr, phase = current_translator(), view["phase"]
        select = phase == "select"
        panels = []
        for s in range(n):
            # the panel's inputs: the same for every seat's display but ``you``
            key = (
                "panel",
                tr,
                s,
                self.name(names, s),
                "dealer" if s == view["dealer"] else "first" if s == view["first_player"] else "",
                (view["selected_counts"][s], view["selection_sizes"][s])
                if select
                else (view["hand_sizes"][s], view["deck_sizes"][s], sums[s]),
                tuple(p for p in ("totem", "horse") if view.get(f"{p}_holder") == s),
                tuple(view["used_this_cycle"][s]),
                scores[s] if scores is not None else None,
                bool(outcome) and s in outcome.get("winners", ()),  # type: ignore[union-attr]
                s in to_act,
                s == me,
            )
            panels.append(_kept(key, partial(self._panel, *key[2:])))
        return tuple(panels)

    @staticmethod
    def _panel(
        s: int,
        who: str,
        role: str,
        counts: tuple[int, ...],
        pieces: tuple[str, ...],
        used: tuple[str, ...],
        score: float | None,
        winner: bool,
        acting: bool,
        you: bool,
    ) -> PlayerPanel:
        """Seat ``s``'s panel.

        ``counts``: chosen and to choose (selecting), else hand, deck and hunters' strength on
        the grounds.
        """
        facts: list[tuple[str, str]] = []
        if role:
            facts.append((_text("manitou.fact.role"), _text(f"manitou.fact.role.{role}")))
        if len(counts) == 2:
            done, size = counts
            chosen = _text("manitou.fact.chosen.value", done=done, size=size)
            facts.append((_text("manitou.fact.chosen"), chosen))
        else:
            hand, deck, hunters = counts
            facts.append((_text("manitou.fact.hand"), str(hand)))
            facts.append((_text("manitou.fact.deck"), str(deck)))
            facts.append((_text("manitou.fact.hunters"), str(hunters)))
        if pieces:
            facts.append((_text("manitou.fact.pieces"), and_list([_piece(p) for p in pieces])))
        if used:
            facts.append((_text("manitou.fact.used"), " ".join(card_short(c) for c in used)))
        shown = _points(score) if score is not None else ""
        if winner:
            shown = _text("manitou.score.winner", score=shown)
        return PlayerPanel(s, who, shown, tuple(facts), to_act=acting, you=you)

    def _progress(self, view: ManitouView, me: int | None) -> str:
        phase = view["phase"]
        if phase == "select" and me is not None:
            return _text(
                "manitou.progress.chosen",
                done=view["selected_counts"][me],
                size=view["selection_sizes"][me],
            )
        sharing = view.get("sharing")
        if phase == "take" and sharing:
            return _counted("manitou.progress.take", int(sharing["picks_left"]))
        return ""

    def _prompt(
        self,
        view: ManitouView,
        me: int | None,
        legal: Sequence[Action],
        names: Sequence[str],
    ) -> str:
        phase = str(view["phase"])
        to_act = [int(s) for s in view["to_act"]]
        if phase == "game_over":
            return _text("manitou.prompt.over")
        if me is None or me not in to_act:
            if phase == "select":
                return _text("manitou.wait.select")
            who = and_list([self.name(names, s) for s in to_act])
            key = f"manitou.wait.{phase}"
            return _text(key if key in MESSAGES else "manitou.wait", players=who)
        if phase == "select":
            size = view["selection_sizes"][me]
            if view["selected_counts"][me] == 0:
                return _text("manitou.prompt.select", count=size)
            left = size - view["selected_counts"][me]
            return _counted("manitou.prompt.select.more", left)
        if phase == "play":
            if all(isinstance(a, ManitouAction) and a.kind == K_PASS for a in legal):
                return _text("manitou.prompt.pass_only")
            return _text("manitou.prompt.play")
        if phase in ("totem", "horse", "thief"):
            return _text(f"manitou.prompt.{phase}")
        sharing = view.get("sharing")
        step = f"manitou.reason.{sharing['step'] if sharing is not None else 'share'}"
        reason = _text(step if step in MESSAGES else "manitou.reason.share")
        left = int(sharing["picks_left"]) if sharing is not None else 1
        ground = sharing["ground"] if sharing is not None else "?"
        if left > 1:
            return _text("manitou.prompt.share.many", ground=ground, reason=reason, count=left)
        return _text("manitou.prompt.share", ground=ground, reason=reason)

    def _result(self, view: ManitouView, names: Sequence[str]) -> tuple[str, ...]:
        outcome = view.get("outcome")
        if not outcome:
            return ()
        lines = []
        details = outcome["details"]
        for s, score in enumerate(outcome["scores"]):
            lines.append(
                _text(
                    "manitou.result" + (".winner" if s in outcome["winners"] else ""),
                    player=self.name(names, s),
                    score=_points(score),
                    breakdown=breakdown(details[s], score),
                )
            )
        lines.extend(self._ties(outcome, names))
        lines.append(_text("manitou.result.rule"))
        return tuple(lines)

    def _ties(self, outcome: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """How each tie on points was decided (manitou §6.2).

        The tipis, then the highest tile; else the tied players share the place.
        """
        lines = []
        details = outcome["details"]
        for group in tied_groups(outcome["scores"]):
            players = and_list([self.name(names, s) for s in group])
            points = _points(outcome["scores"][group[0]])
            tipis = {s: int(details[s]["tipis"]) for s in group}
            high = {s: int(details[s]["highest_tile"]) for s in group}
            if len(set(tipis.values())) > 1:
                key, by = "manitou.result.tiebreak.tipis", tipis
            elif len(set(high.values())) > 1:
                key, by = "manitou.result.tiebreak.tile", high
            else:
                lines.append(_text("manitou.result.tie", players=players, points=points))
                continue
            best = max(by.values())
            leaders = and_list([self.name(names, s) for s in group if by[s] == best])
            counts = ", ".join(f"{self.name(names, s)} {by[s]}" for s in group)
            lines.append(_text(key, players=players, points=points, leaders=leaders, counts=counts))
        return lines

    def _kept_choice(
        self, tr: object, action: ManitouAction, view: ManitouView, n: int
    ) -> ActionChoice:
        """:meth:`_choice`, kept by the action and the parts of the view its label uses."""
        kind = action.kind
        phase = view["phase"]
        if kind == K_PICK:
            needs: Any = None
        elif kind == K_PLAY:
            you = view.get("you")
            needs = (phase == "totem", tuple(you["hand"]) if you is not None else ())
        elif kind == K_MOVE:
            seat = view.get("seat")
            needs = tuple(
                tuple((j, c) for j, (owner, c, _) in enumerate(ground["cards"]) if owner == seat)
                for ground in view["grounds"]
            )
        elif kind == K_TAKE:
            sharing = view.get("sharing")
            g = sharing["ground"] if sharing is not None else 0
            needs = (g, tuple(view["grounds"][g - 1]["tiles"]) if g else ())
        elif kind == K_LOSE:
            needs = (view["seat"], tuple(view["tiles_owned"][view["seat"] or 0]))
        else:
            needs = phase
        key = ("choice", tr, action, n, needs)
        made: ActionChoice = _kept(key, partial(self._choice, action, view, n))
        return made

    def _choice(self, action: ManitouAction, view: ManitouView, n: int) -> ActionChoice:
        kind = action.kind
        if kind == K_PICK:
            card = CARD_NAMES[action.arg]
            label = _text("manitou.action.pick", card=card_label(card))
            return self.choice(action, n, label, f"pool:{card}", group="pick", key=card)
        if kind == K_PLAY:
            card = CARD_NAMES[action.arg]
            you = view.get("you")
            hand = you["hand"] if you is not None else []
            g = action.ground + 1
            extra = ".totem" if view["phase"] == "totem" else ""
            return self.choice(
                action,
                n,
                _text(f"manitou.action.play{extra}", card=card_label(card), ground=g),
                f"g{g}",
                group=f"play {card}",
                key=f"{card} g{g}",
                source=f"hand:{hand.index(card)}" if card in hand else None,
            )
        if kind == K_MOVE:
            card = CARD_NAMES[action.arg]
            g = action.ground + 1
            seat = view.get("seat")
            found = next(
                (
                    (i, j)
                    for i, ground in enumerate(view["grounds"], 1)
                    for j, (owner, c, _) in enumerate(ground["cards"])
                    if owner == seat and c == card
                ),
                None,
            )
            if found is not None:
                label = _text(
                    "manitou.action.move", card=card_label(card), source=found[0], ground=g
                )
            else:
                label = _text("manitou.action.move.anywhere", card=card_label(card), ground=g)
            return self.choice(
                action,
                n,
                label,
                f"g{g}",
                group=f"move {card}",
                key=f"{card} g{g}",
                source=f"g{found[0]}:c{found[1]}" if found is not None else None,
            )
        if kind in (K_TAKE, K_LOSE):
            tile = TILE_NAMES[action.arg]
            target = None
            if kind == K_TAKE:
                sharing = view.get("sharing")
                g = sharing["ground"] if sharing is not None else 0
                tiles = view["grounds"][g - 1]["tiles"] if g else []
                if tile in tiles:
                    target = f"g{g}:t{tiles.index(tile)}"
                label = _text("manitou.action.take", tile=tile_label(tile))
            else:
                seat = view["seat"] or 0  # only a seat loses tiles to the thief
                owned = view["tiles_owned"][seat]
                if tile in owned:
                    target = f"tiles:{seat}:{owned.index(tile)}"
                label = _text("manitou.action.lose", tile=tile_label(tile))
            return self.choice(
                action, n, label, target, group="take" if kind == K_TAKE else "lose", key=tile
            )
        key = f"manitou.action.pass.{view['phase']}"
        label = _text(key if key in MESSAGES else "manitou.action.pass")
        return self.choice(action, n, label, group="pass", key="pass")

    # ----- log lines -----------------------------------------------------------------------

    def say(self, message_id: str, **params: Any) -> Message:
        """The message ``message_id`` (a key of :data:`MESSAGES`) filled with ``params``."""
        return Message.make(message_id, MESSAGES[message_id], **params)

    def changes(self, events: Sequence[Event], seat: int | None) -> StepDisplay:
        """The hunting grounds, hands and won tiles a step changed (for highlighting)."""
        changed: list[str] = []
        for event in events:
            kind, d = event.type, event.data
            ground = d.get("ground")
            if isinstance(ground, int):
                changed.append(
                    f"g{ground}:cards" if kind in ("play", "hero_down") else f"g{ground}"
                )
            if kind == "horse_move":
                changed.extend((f"g{d['from']}:cards", f"g{d['to']}:cards"))
            if kind in ("take", "robbed") and isinstance(d.get("seat"), int):
                changed.append(f"tiles:{d['seat']}")
            if kind == "piece":
                for who in (d.get("from"), d.get("to")):
                    if isinstance(who, int):
                        changed.append(f"tiles:{who}")
            if kind in ("play", "draw_card", "pick_card", "hand") and d.get("seat") == seat:
                changed.extend(("hand", "selection", "pool", "deck"))
            if kind in ("tiles_to_bag", "tiles_removed"):
                changed.extend(("bag", "out"))
        return StepDisplay(tuple(dict.fromkeys(changed)))

    def message(self, event: Event, names: Sequence[str], seat: int | None) -> Message | None:
        """One log line of ``event`` as ``seat`` reads it (``None``: not worth a line)."""
        d = event.data
        t = event.type
        actor = d.get("seat")
        you = isinstance(actor, int) and actor == seat
        suffix = ".you" if you else ""
        player = self.name(names, actor) if isinstance(actor, int) else ""
        if t == "hunt_start":
            grounds = "; ".join(
                _text("manitou.ground_tiles", ground=g, tiles=_tiles_text(tiles))
                for g, tiles in enumerate(d["grounds"], 1)
            )
            mid = "manitou.hunt_start" + (".you" if d["dealer"] == seat else "")
            return self.say(
                mid,
                hunt=d["hunt"],
                dealer=self.name(names, d["dealer"]),
                first=self.name(names, d["first_player"]),
                grounds=grounds,
            )
        if t in ("pick", "draw"):
            # the reader's own pick or draw is told by the private event that names the card
            return None if you else self.say(f"manitou.{t}", player=player, **_only(d, "count"))
        if t in ("pick_card", "draw_card"):
            return self.say(f"manitou.{t}.you", card=card_label(d["card"])) if you else None
        if t == "hand":
            if not you:
                return None
            return self.say("manitou.hand.you", cards=and_list([card_label(c) for c in d["hand"]]))
        if t in ("dealt", "play_over"):
            return self.say(f"manitou.{t}")
        if t == "play":
            mid = "manitou.play" + (".totem" if d.get("totem") else "") + suffix
            return self.say(mid, player=player, card=card_label(d["card"]), ground=d["ground"])
        if t == "hero_down":
            return self._hero_down(d, names, seat)
        if t in ("no_play", "totem_pass", "horse_pass", "thief_finds_nothing"):
            return self.say(f"manitou.{t}{suffix}", player=player)
        if t == "horse_move":
            return self.say(
                f"manitou.horse_move{suffix}",
                player=player,
                card=card_label(d["card"]),
                source=d["from"],
                target=d["to"],
            )
        if t == "thief":
            robbed = list(d["robbed"])
            if not robbed:
                return self.say("manitou.thief.nobody")
            sums = ", ".join(f"{self.name(names, s)} {v}" for s, v in enumerate(d["sums"]))
            who = and_list(
                [_text("manitou.you") if s == seat else self.name(names, s) for s in robbed]
            )
            if len(robbed) > 1:
                return self.say("manitou.thief.many", sums=sums, robbed=who)
            if robbed == [seat]:
                return self.say("manitou.thief.you", sums=sums)
            return self.say("manitou.thief", sums=sums, robbed=who)
        if t == "robbed":
            return self.say(f"manitou.robbed{suffix}", player=player, tile=tile_label(d["tile"]))
        if t == "take":
            return self.say(
                f"manitou.take{suffix}",
                player=player,
                tile=tile_label(d["tile"]),
                ground=d["ground"],
            )
        if t == "piece":
            to = d["to"]
            mine = ".you" if to == seat else ""
            if d.get("from") is None:
                return self.say(
                    f"manitou.piece.first{mine}",
                    player=self.name(names, to),
                    piece=_piece(d["piece"]),
                )
            if d["from"] == seat:
                return self.say(
                    "manitou.piece.from_you", player=self.name(names, to), piece=_piece(d["piece"])
                )
            return self.say(
                f"manitou.piece{mine}",
                player=self.name(names, to),
                piece=_piece(d["piece"]),
                holder=self.name(names, d["from"]),
            )
        if t in ("tiles_removed", "tiles_to_bag"):
            return self.say(f"manitou.{t}", tiles=_tiles_text(d["tiles"]), ground=d["ground"])
        if t == "hunt_end":
            return self.say("manitou.hunt_end", hunt=d["hunt"], standings=self._standings(d, names))
        if t == "game_over":
            outcome = d["outcome"]
            winners = [int(s) for s in outcome.get("winners", ())]
            wins = _text(
                "manitou.winners" + (".shared" if len(winners) > 1 else ""),
                players=and_list([self.name(names, s) for s in winners]),
            )
            best = outcome["scores"][winners[0]] if winners else 0
            return self.say(
                "manitou.game_over",
                winners=wins,
                score=_points(best),
                standings=self._standings(outcome, names),
            )
        return None

    def _hero_down(self, d: Mapping[str, Any], names: Sequence[str], seat: int | None) -> Message:
        reason = str(d.get("reason", "beaten"))
        base = "manitou.hero_down" + ("" if reason == "beaten" else f".{reason}")
        owner, by_seat = d["seat"], d.get("by_seat")
        if owner == seat:
            mid = base + ".you"
        elif by_seat == seat and reason != "sacrifice":
            mid = base + ".by_you"
        else:
            mid = base
        return self.say(
            mid,
            player=self.name(names, owner),
            card=card_label(d["card"]),
            ground=d.get("ground", "?"),
            other=(
                self.name(names, by_seat)
                if isinstance(by_seat, int)
                else _text("manitou.another_player")
            ),
            by=card_label(str(d.get("by", "hero"))),
        )

    def _standings(self, data: Mapping[str, Any], names: Sequence[str]) -> str:
        details = data.get("details") or [{} for _ in data["scores"]]
        return "; ".join(
            _text(
                "manitou.standing",
                player=self.name(names, s),
                score=_points(score),
                breakdown=breakdown(details[s], score),
            )
            for s, score in enumerate(data["scores"])
        )

    # ----- the legend ----------------------------------------------------------------------

    def legend(self) -> list[LegendEntry]:
        """Every code the display uses."""
        entries = [
            LegendEntry(symbol, _text(f"manitou.legend.{key}"))
            for symbol, key in (
                ("H1 … H10", "hunters"),
                ("CH", "chief"),
                ("SQ", "squaw"),
                ("SH", "shaman"),
                ("SP", "spy"),
                ("HE", "healer"),
                (_text("manitou.mark.face_down"), "face_down"),
                ("B1 … B5", "buffalo"),
                ("T1 … T5", "tipi"),
                ("HO", "horse"),
                ("TO", "totem"),
                ("TK", "tomahawk"),
                (_text("manitou.zone.ground", ground="1 … 3"), "grounds"),
                (_text("manitou.fact.hunters"), "hunter_total"),
                (_text("manitou.fact.used"), "used"),
                (">", "to_act"),
            )
        ]
        return entries


def _only(data: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    return {k: data[k] for k in keys if k in data}


def render(state: ManitouState, seat: int | None) -> str:
    """``state.render(seat)``: the plain text of the presenter's display for ``seat``.

    Players are named ``seat 0``, ``seat 1``, …; the seat to act sees its legal actions' count.
    """
    from .game import GAME

    names = [f"seat {s}" for s in range(state.num_players)]
    legal = state.legal_actions(seat) if seat is not None and seat in state.seats_to_act() else []
    return render_text(ManitouPresenter(GAME).display(state.view(seat), legal, names))
