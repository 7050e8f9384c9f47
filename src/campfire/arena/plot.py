"""The PNG of ``campfire sim --plot``: scores per agent and win shares with 95% intervals.

Drawn with matplotlib's Agg canvas (no display needed, no global pyplot state). Three panels:
the score distribution of each agent (box plots, the mean as a dot), the win share of each agent
and the win share of each seat, both with their 95% intervals and the fair share as a line.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from campfire.core import CampfireError, get
from campfire.i18n import _, game_title, ngettext

from .stats import Summary

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_summary"]


def plot_summary(summary: Summary, path: str | Path) -> None:
    """Write the plot of ``summary`` to ``path`` (PNG, or SVG or PDF by the suffix).

    Raises :class:`~campfire.core.CampfireError` if matplotlib is missing or the file cannot be
    written.
    """
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise CampfireError(
            _("--plot needs the 'matplotlib' package: pip install matplotlib")
        ) from None

    cfg = summary.config
    fig = Figure(figsize=(15, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    ax_scores, ax_agents, ax_seats = fig.subplots(1, 3, width_ratios=[1.4, 1, 1])
    labels = [a.agent for a in summary.agents]
    positions = list(range(1, len(labels) + 1))

    data = [list(a.scores) if a.scores else [0.0] for a in summary.agents]
    ax_scores.boxplot(data, positions=positions, widths=0.6)
    ax_scores.plot(positions, [a.score_mean for a in summary.agents], "o", color="tab:red")
    ax_scores.set_xticks(positions, labels, rotation=20, ha="right")
    ax_scores.set_title(_("score per agent (dot: mean)"))
    ax_scores.set_ylabel(_("score"))

    def bars(
        ax: Axes, names: list[str], shares: list[float], cis: list[tuple[float, float]]
    ) -> None:
        x = list(range(len(names)))
        lower = [s - lo for s, (lo, _) in zip(shares, cis, strict=True)]
        upper = [hi - s for s, (_, hi) in zip(shares, cis, strict=True)]
        ax.bar(x, shares, color="tab:blue", alpha=0.75)
        ax.errorbar(x, shares, yerr=[lower, upper], fmt="none", ecolor="black", capsize=4)
        ax.axhline(summary.fair_share, color="tab:gray", linestyle="--", label=_("fair share"))
        ax.set_xticks(x, names, rotation=20, ha="right")
        ax.set_ylim(0, 1)
        ax.set_ylabel(_("win share (95% interval)"))
        ax.legend(loc="upper right")

    bars(
        ax_agents,
        labels,
        [a.win_share for a in summary.agents],
        [a.win_share_ci for a in summary.agents],
    )
    ax_agents.set_title(_("win share per agent (per seat held)"))
    bars(
        ax_seats,
        [_("seat {seat}").format(seat=s.seat) for s in summary.seats],
        [s.win_share for s in summary.seats],
        [s.win_share_ci for s in summary.seats],
    )
    ax_seats.set_title(_("win share per seat"))
    players = ngettext("{count} player", "{count} players", cfg.players)
    fig.suptitle(
        ngettext(
            "{title}, {players}: {count} game (seed {seed})",
            "{title}, {players}: {count} games (seed {seed})",
            summary.completed,
        ).format(
            title=game_title(get(cfg.game)),
            players=players.format(count=cfg.players),
            count=summary.completed,
            seed=cfg.seed,
        )
    )
    try:
        target = Path(path)
        kind = target.suffix.lower().lstrip(".") or "png"
        fig.savefig(target, format=kind if kind in ("png", "svg", "pdf") else "png", dpi=100)
    except OSError as exc:
        raise CampfireError(
            _("cannot write the plot {path}: {reason}").format(
                path=path, reason=exc.strerror or exc
            )
        ) from None
