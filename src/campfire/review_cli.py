"""``campfire review FILE``: the post-game review of a recorded game in the terminal.

Every decision of every seat (or of ``--seat S``) that had a choice is assessed by the game's
``hard`` search from what that seat knew (:mod:`campfire.agents.review`); the command prints the
move played and the search's best move in the presenter's words, their estimates, the marks
(inaccuracy, blunder) and a summary per seat, or the review's JSON (``--json``). A progress bar
runs on standard error while it works, in a terminal. Nothing is written unless ``--out FILE``
asks for the JSON in a file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .agents.review import (
    BLUNDER,
    INACCURACY,
    MAX_REVIEW_ITERATIONS,
    Review,
    action_words,
    review,
)
from .core import CampfireError, get
from .core.records import Record, replay_file
from .core.validate import MAX_PLAYERS_ARG, int_arg, seed_arg
from .i18n import _, current, game_title, ngettext
from .i18n.names import shown_names
from .progress import progress_bar

__all__ = ["add_review_command", "cmd_review", "review_text"]


def add_review_command(sub: Any) -> None:
    """Add ``review`` to the ``campfire`` command's subcommands."""
    p = sub.add_parser(
        "review",
        help=_("review a finished game: the search's assessment of every decision"),
    )
    p.add_argument("file", metavar="FILE", help=_("a JSON game record"))
    p.add_argument(
        "--iterations",
        type=int_arg("the iterations", 1, MAX_REVIEW_ITERATIONS),
        default=None,
        metavar="N",
        help=_("search iterations per decision (default: those of the hard level)"),
    )
    p.add_argument(
        "--seat",
        type=int_arg("the seat", 0, MAX_PLAYERS_ARG),
        action="append",
        default=None,
        metavar="S",
        help=_("review only this seat (may be repeated; default: every seat)"),
    )
    p.add_argument("--seed", type=seed_arg, default=0, help=_("the search's seed (default 0)"))
    p.add_argument("--json", action="store_true", help=_("print the review as JSON"))
    p.add_argument(
        "--out", metavar="FILE", default=None, help=_("also write the review's JSON to FILE")
    )
    p.set_defaults(func=cmd_review)


def _percent(value: float) -> str:
    return current().number(round(100 * value)) + " %"


def _estimate(value: float) -> str:
    return current().number(round(value, 2), 2)


def _mark_word(mark: str) -> str:
    if mark == "blunder":
        return _("blunder")
    if mark == "inaccuracy":
        return _("inaccuracy")
    return ""


def review_text(record: Record, result: Review) -> str:
    """The review as the terminal prints it (in the language in force)."""
    game = get(record.game)
    names = shown_names([p.name for p in record.players], [p.agent for p in record.players])
    words = action_words(record, result.decisions, game)
    lines = [
        ngettext(
            "{game}: {count} decision reviewed at {iterations} search iterations each.",
            "{game}: {count} decisions reviewed at {iterations} search iterations each.",
            len(result.decisions),
        ).format(game=game_title(game), count=len(result.decisions), iterations=result.iterations),
        _(
            "Estimates are the search's (0–1, higher is better); an inaccuracy loses at least "
            "{inaccuracy}, a blunder at least {blunder} against the best move."
        ).format(inaccuracy=_estimate(INACCURACY), blunder=_estimate(BLUNDER)),
    ]
    for decision, (played, best) in zip(result.decisions, words, strict=True):
        mark = _mark_word(decision.mark)
        head = _("#{number} {name}: played {played} ({value}, win {win})").format(
            number=decision.index + 1,
            name=names[decision.seat],
            played=played,
            value=_estimate(decision.played_value),
            win=_percent(decision.played_win),
        )
        if decision.played == decision.best:
            lines.append(head + " — " + _("the search's choice too"))
            continue
        tail = _("best {best} ({value}, win {win})").format(
            best=best, value=_estimate(decision.best_value), win=_percent(decision.best_win)
        )
        lines.append(f"{head} — {tail}" + (f"  [{mark}]" if mark else ""))
    lines.append(_("Summary:"))
    for summary in result.summary():
        counts = ", ".join(
            (
                ngettext("{count} decision", "{count} decisions", summary.decisions).format(
                    count=summary.decisions
                ),
                ngettext("{count} inaccuracy", "{count} inaccuracies", summary.inaccuracies).format(
                    count=summary.inaccuracies
                ),
                ngettext("{count} blunder", "{count} blunders", summary.blunders).format(
                    count=summary.blunders
                ),
                _("mean loss {loss}").format(loss=current().number(round(summary.mean_loss, 3))),
            )
        )
        lines.append(
            "  "
            + _("{name} (seat {seat}): {counts}").format(
                name=names[summary.seat], seat=summary.seat, counts=counts
            )
        )
    return "\n".join(lines)


def cmd_review(args: argparse.Namespace) -> int:
    """Run ``campfire review``."""
    record, match = replay_file(args.file)
    if not match.state.is_terminal():
        raise CampfireError(_("the game is not finished: only a finished game is reviewed"))
    show_bar = sys.stderr.isatty()
    with progress_bar(show_bar, _("reviewing")) as progress:
        result = review(
            record,
            iterations=args.iterations,
            seats=args.seat,
            seed=args.seed,
            progress=progress,
            game=match.game,
        )
    data = result.to_json()
    if args.out is not None:
        try:
            Path(args.out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise CampfireError(
                _("cannot write {path}: {reason}").format(path=args.out, reason=exc.strerror)
            ) from None
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
    else:
        print(review_text(record, result))
    return 0
