"""The end-of-game result lines say how a tie on points was decided: each game's own tie-break
(Tracker: the enemy scouts collected; Big Manitou: the tipis, then the highest tile), or that
the tied players share their place (Apache and Dudab have no tie-break)."""

from __future__ import annotations

from typing import Any

from campfire.core import get
from campfire.core.outcome import Outcome
from campfire.core.present import translation
from campfire.i18n import translator

NAMES = ["Ann", "Bob", "Cid"]


def _result(game: str, view: dict[str, Any]) -> list[str]:
    presenter: Any = get(game).presenter()
    return list(presenter._result(view, NAMES))


def _tracker(enemies: list[int]) -> dict[str, Any]:
    scores = [12, 12, 3]
    details = [
        {
            "enemy_scouts_captured": e,
            "own_scouts_on_board": 0,
            "own_scouts_captured": 0,
            "false_tracks_captured": 0,
        }
        for e in enemies
    ]
    outcome = Outcome.from_scores(scores, tiebreak=enemies, details=details)
    return {"outcome": outcome.to_json()}


def test_tracker_says_the_enemy_scouts_decided_the_tie() -> None:
    lines = _result("tracker", _tracker([4, 2, 1]))
    assert (
        "Ann and Bob tie on 12 points; the tie-break, more enemy scouts collected, puts Ann "
        "ahead (Ann 4, Bob 2)." in lines
    )
    shared = _result("tracker", _tracker([3, 3, 1]))
    assert any("collected as many enemy scouts (3): they share the place" in x for x in shared)


def _manitou(tipis: list[int], high: list[int]) -> dict[str, Any]:
    details = [
        {
            "tipis": t,
            "buffalo": t,
            "pairs": t,
            "totem_tiles": 0,
            "horse_tiles": 0,
            "tomahawk_tiles": 0,
            "pieces": 0,
            "highest_tile": h,
        }
        for t, h in zip(tipis, high, strict=True)
    ]
    tiebreak = [t * 10 + h for t, h in zip(tipis, high, strict=True)]
    return {"outcome": Outcome.from_scores([5, 5, 5], tiebreak, details=details).to_json()}


def test_big_manitou_says_the_tipis_then_the_highest_tile_decided() -> None:
    by_tipis = _result("manitou", _manitou([4, 3, 3], [2, 2, 2]))
    assert any(
        x == "Ann, Bob and Cid tie on 5 points; the tie-break, more tipis, puts Ann ahead "
        "(Ann 4, Bob 3, Cid 3)."
        for x in by_tipis
    ), by_tipis
    by_tile = _result("manitou", _manitou([3, 3, 3], [2, 5, 5]))
    assert any(
        "the highest tile, puts Bob and Cid ahead (Ann 2, Bob 5, Cid 5)" in x for x in by_tile
    )
    shared = _result("manitou", _manitou([3, 3, 3], [2, 2, 2]))
    assert any(x.endswith("they share the place.") for x in shared)


def test_apache_and_dudab_say_the_tied_players_share_the_place() -> None:
    piles = [["buffalo", "teepee"], ["buffalo", "buffalo"], ["teepee"]]
    outcome = Outcome.from_scores([2, 2, 1]).to_json()
    view = {"piles": piles, "colours": ["red", "blue", "green"], "outcome": outcome}
    apache = _result("apache", view)
    assert "Ann and Bob tie on 2 cards: Apache has no tie-break, they share the place." in apache
    totals = [30, 12, 12]
    dudab_view = {
        "totals": totals,
        "scores": [[t] for t in totals],
        "outcome": Outcome.from_scores(totals, lower_is_better=True).to_json(),
    }
    dudab = _result("dudab", dudab_view)
    assert "Bob and Cid tie on 12 points: Dudab has no tie-break, they share the place." in dudab


def test_the_tie_lines_are_translated() -> None:
    with translation(translator("hu").text):
        hu = _result("tracker", _tracker([4, 2, 1]))
    with translation(translator("cs").text):
        cs = _result(
            "apache",
            {
                "piles": [["teepee"], ["teepee"]],
                "colours": ["red", "blue"],
                "outcome": Outcome.from_scores([1, 1]).to_json(),
            },
        )
    assert any("holtverseny-döntő" in x and "Ann 4, Bob 2" in x for x in hu), hu
    assert any("o místo se dělí" in x for x in cs), cs
