"""Ratings of agents from saved game records, with the ``openskill`` package.

Every finished record in a folder is one rated game (the Plackett–Luce model, each seat its own
team, ranked by the record's outcome; tied seats share a rank). A player is identified by its
agent spec (``"agent"`` in the record's players), or by its name for a human. Games are rated
per game kind (each game's ratings are a separate leaderboard) in the order of the files'
names, which is the order of play for a folder written by ``campfire sim --records``. When one
agent holds several seats of a game, each seat is rated as a separate player and the agent's
new rating is the mean of their updates.

The leaderboard sorts by the conservative rating ``μ − 3σ`` (the "ordinal").

>>> from campfire.core import Outcome, Player
>>> players = [Player("Ann", "heuristic"), Player("Bob", "random")]
>>> games = [Record("pile", players, seed=1, outcome=Outcome.from_scores([3, 1]))] * 3
>>> (board,) = rate_records(games)
>>> [(row.player, row.games, row.win_share) for row in board.rows]
[('heuristic', 3, 1.0), ('random', 3, 0.0)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from campfire.core import CampfireError, ErrorText, Record, RecordError, get, replay
from campfire.core.validate import loads_json, read_bytes
from campfire.i18n import N_, Translator, current, game_title

from .stats import text_table

__all__ = ["Leaderboard", "RatingRow", "load_records", "rate_records"]


@dataclass(frozen=True)
class RatingRow:
    """One player's rating: μ, σ, the ordinal μ − 3σ, games played and win share."""

    player: str
    mu: float
    sigma: float
    games: int
    win_share: float

    @property
    def ordinal(self) -> float:
        """The conservative rating μ − 3σ that orders the leaderboard."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON-ready dict."""
        return {
            "player": self.player,
            "rating": self.ordinal,
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
            "win_share": self.win_share,
        }


@dataclass
class Leaderboard:
    """The ratings of one game's players, best first."""

    game: str
    games: int
    rows: list[RatingRow]
    skipped: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The leaderboard as a JSON-ready dict."""
        return {
            "game": self.game,
            "games": self.games,
            "model": "openskill PlackettLuce",
            "rows": [r.to_json() for r in self.rows],
        }

    def to_text(self, tr: Translator | None = None) -> str:
        """The leaderboard as printed by ``campfire rate``, in ``tr``'s language.

        The default is the current language; numbers are written as that language writes them.
        """
        tr = tr or current()
        try:
            title = game_title(get(self.game), tr)
        except CampfireError:
            title = self.game
        head = tr.ngettext(
            "{title}: {count} game rated (openskill Plackett–Luce; rating = μ − 3σ)",
            "{title}: {count} games rated (openskill Plackett–Luce; rating = μ − 3σ)",
            self.games,
        ).format(title=title, count=self.games)
        return "\n".join(
            [
                head,
                *text_table(
                    [
                        ("#", ">"),
                        (tr.gettext(N_("player")), "<"),
                        (tr.gettext(N_("rating")), ">"),
                        ("μ", ">"),
                        ("σ", ">"),
                        (tr.gettext(N_("games")), ">"),
                        (tr.gettext(N_("win share")), ">"),
                    ],
                    [
                        [
                            str(i),
                            r.player,
                            tr.number(r.ordinal, 2),
                            tr.number(r.mu, 2),
                            tr.number(r.sigma, 2),
                            str(r.games),
                            tr.number(r.win_share, 3),
                        ]
                        for i, r in enumerate(self.rows, 1)
                    ],
                ),
            ]
        )


def load_records(folder: str | Path) -> tuple[list[tuple[Path, Record]], dict[str, int]]:
    """Read every ``*.json`` record under ``folder`` (recursively, sorted by path).

    Returns the finished records and counts of the files left out: ``not_a_record`` (JSON that
    is not a Campfire record, such as a ``--json`` summary) and ``unfinished`` (partial records
    of failed games). A malformed record raises :class:`~campfire.core.RecordError` naming the
    file.
    """
    root = Path(folder)
    if not root.is_dir():
        raise CampfireError(
            ErrorText(
                "{folder} is not a folder (give the folder of 'campfire sim --records')",
                folder=str(root),
            )
        )
    records: list[tuple[Path, Record]] = []
    skipped = {"not_a_record": 0, "unfinished": 0}
    for path in sorted(root.rglob("*.json")):
        try:  # within the limits of docs/records.md; a file beyond them is not a record
            data = loads_json(read_bytes(path, str(path)), str(path))
        except RecordError:
            skipped["not_a_record"] += 1
            continue
        if not isinstance(data, dict) or data.get("format") != "campfire-record":
            skipped["not_a_record"] += 1
            continue
        try:
            record = Record.from_json(data)
        except RecordError as exc:
            raise RecordError(
                ErrorText("{path}: {reason}", path=str(path), reason=exc.text)
            ) from None
        if record.outcome is None:
            skipped["unfinished"] += 1
            continue
        records.append((path, record))
    return records, skipped


def _player_key(record: Record, seat: int) -> str:
    player = record.players[seat]
    return player.agent if player.agent is not None else player.name


def rate_records(
    records: Iterable[tuple[Path, Record]] | Iterable[Record], *, verify: bool = False
) -> list[Leaderboard]:
    """Rate the players of finished records; one leaderboard per game, sorted by game name.

    With ``verify`` each record is replayed first (a record that does not replay raises
    :class:`~campfire.core.RecordError` naming its file).
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise CampfireError(
            ErrorText("ratings need the 'openskill' package: pip install openskill")
        ) from None

    model = PlackettLuce()
    ratings: dict[str, dict[str, Any]] = {}
    played: dict[str, dict[str, int]] = {}
    won: dict[str, dict[str, float]] = {}
    counts: dict[str, int] = {}
    for item in records:
        path, record = item if isinstance(item, tuple) else (None, item)
        outcome = record.outcome
        if outcome is None:
            continue
        if verify:
            try:
                replay(record)
            except RecordError as exc:
                raise RecordError(
                    ErrorText("{path}: {reason}", path=str(path or record.game), reason=exc.text)
                ) from None
        table = ratings.setdefault(record.game, {})
        games = played.setdefault(record.game, {})
        wins = won.setdefault(record.game, {})
        counts[record.game] = counts.get(record.game, 0) + 1
        keys = [_player_key(record, s) for s in range(len(record.players))]
        for key in keys:
            if key not in table:
                table[key] = model.rating(name=key)
        teams = [[model.rating(mu=table[k].mu, sigma=table[k].sigma, name=k)] for k in keys]
        new = model.rate(teams, ranks=[float(r) for r in outcome.ranks])
        updates: dict[str, list[tuple[float, float]]] = {}
        for key, team in zip(keys, new, strict=True):
            updates.setdefault(key, []).append((team[0].mu, team[0].sigma))
        shares = outcome.win_shares()
        for key, values in updates.items():
            mu = sum(v[0] for v in values) / len(values)
            sigma = sum(v[1] for v in values) / len(values)
            table[key] = model.rating(mu=mu, sigma=sigma, name=key)
            games[key] = games.get(key, 0) + 1
        for seat, key in enumerate(keys):
            wins[key] = wins.get(key, 0.0) + shares[seat] / keys.count(key)
    boards = []
    for game in sorted(ratings):
        rows = [
            RatingRow(k, r.mu, r.sigma, played[game][k], won[game][k] / played[game][k])
            for k, r in ratings[game].items()
        ]
        rows.sort(key=lambda row: (-row.ordinal, row.player))
        boards.append(Leaderboard(game, counts[game], rows))
    return boards
