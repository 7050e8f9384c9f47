"""The ``campfire`` command.

Bad input (an unknown game, a bad option, a malformed or illegal record) ends with a one-line
message on standard error and exit status 2, never a traceback.

Everything the command says is in the chosen language (``--lang``, then ``CAMPFIRE_LANG``, then
the system locale, then English; :mod:`campfire.i18n`).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from . import __version__
from .core import CampfireError, Game, OptionError, all_games, get
from .core.present import and_list
from .core.records import replay_file, replay_text
from .core.registry import plugin_errors
from .core.validate import MAX_JSON_BYTES, MAX_PLAYERS_ARG, int_arg, seed_arg
from .i18n import (
    LANGUAGES,
    _,
    check_language,
    current,
    game_title,
    ngettext,
    resolve_language,
    use_language,
)
from .i18n.argparse_strings import argparse_language
from .i18n.names import shown_names
from .i18n.rules import missing_note, option_help, rules_document

__all__ = ["main", "rules_markdown"]

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, naming what is allowed."""

    def error(self, message: str) -> NoReturn:
        text = _("{prog}: error: {message} (see '{prog} --help')").format(
            prog=self.prog, message=current().error(message)
        )
        self.exit(EXIT_USAGE, text + "\n")


def _seconds_arg(text: str) -> float:
    try:
        value = float(text) if _SECONDS.fullmatch(text.strip()) else math.nan
    except ValueError:
        value = math.nan
    if not 0 < value <= MAX_BENCH_SECONDS:
        raise argparse.ArgumentTypeError(
            _("a number of seconds above 0 and at most {most} (got {got})").format(
                most=MAX_BENCH_SECONDS, got=repr(text[:40])
            )
        )
    return value


_SECONDS = re.compile(r"[0-9]{1,6}(?:\.[0-9]{0,6})?|\.[0-9]{1,6}")
#: The longest benchmark run per game, in seconds.
MAX_BENCH_SECONDS = 3600


def _fmt_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _language_arg(text: str) -> str:
    try:
        return check_language(text)
    except OptionError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _options_text(game: Game[Any]) -> list[str]:
    infos = game.options_type.infos()
    if not infos:
        return ["  " + _("(no options)")]
    lines = []
    for info in infos:
        allowed = (
            "/".join(_fmt_value(c) for c in info.choices)
            if info.choices is not None
            else ("true/false" if info.type is bool else info.type.__name__)
        )
        help_text = option_help(game, info.name, info.help)
        lines.append(f"  {info.name}={_fmt_value(info.default)}  ({allowed})  {help_text}".rstrip())
    return lines


def games_table() -> str:
    """The table printed by ``campfire games``."""
    header = (_("game").ljust(10), _("title").ljust(14), _("players").ljust(8))
    lines = [" ".join((*header, _("options (default)")))]
    for game in all_games():
        opts = ", ".join(f"{i.name}={_fmt_value(i.default)}" for i in game.options_type.infos())
        players = f"{game.min_players}–{game.max_players}"
        lines.append(f"{game.name:<10} {game_title(game):<14} {players:<8} {opts or '-'}")
    return "\n".join(lines)


def _cmd_games(args: argparse.Namespace) -> int:
    for failure in plugin_errors():  # a game that could not be loaded is said, not hidden
        print(
            _("campfire: warning: {message}").format(message=current().error(failure.message())),
            file=sys.stderr,
        )
    if args.json:
        data = [g.to_json() for g in all_games()]
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(games_table())
    return 0


def rules_markdown(game: Game[Any], language: str | None = None) -> str:
    """The rules document of ``game`` (Markdown), then its options as typed after ``--option``.

    In ``language`` (default: the current one) when the document is written in it
    (``docs/rules/<game>.<language>.md``); otherwise the English one, after a one-line note.

    >>> game = all_games()[0]
    >>> text = rules_markdown(game)
    >>> text.startswith("# ") and all(f"  {i.name}=" in text for i in game.options_type.infos())
    True
    """
    wanted = language or current().language
    text, written_in = rules_document(game, wanted)
    note = [missing_note(game), ""] if written_in != wanted else []
    return "\n".join(
        [
            *note,
            text.rstrip(),
            "",
            _(
                "**Options at a glance** (`campfire ... --option name=value`; "
                "default, allowed values, meaning):"
            ),
            "",
            "```",
            *_options_text(game),
            "```",
        ]
    )


def _cmd_rules(args: argparse.Namespace) -> int:
    game = get(args.game)
    text = rules_markdown(game)
    if args.plain or not sys.stdout.isatty():
        print(text)  # the Markdown source: plain text, no escape codes
        return 0
    from rich.console import Console
    from rich.markdown import Markdown

    Console().print(Markdown(text))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    if args.watch:
        if args.file == "-" or args.json:
            raise CampfireError(
                _("--watch needs a record FILE (not '-') and cannot be used with --json")
            )
        from .tui.launch import run_watch

        return run_watch(args.file)
    if args.file == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream stands in for standard input (tests, embedding)
            text = sys.stdin.read(MAX_JSON_BYTES + 1)
            record, match = replay_text(text, source=_("standard input"))
        else:
            record, match = replay_file(stream, name=_("standard input"))
    else:
        record, match = replay_file(args.file)
    state = match.state
    outcome = state.outcome() if state.is_terminal() else None
    if args.json:
        out = {
            "game": record.game,
            "players": [p.to_json() for p in record.players],
            "actions": len(record.actions),
            "finished": outcome is not None,
            "outcome": outcome.to_json() if outcome is not None else None,
            "view": state.view(None),
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    names = shown_names([p.name for p in record.players], [p.agent for p in record.players])
    players = ngettext("{count} player", "{count} players", len(names)).format(count=len(names))
    actions = ngettext(
        "{count} action verified.", "{count} actions verified.", len(record.actions)
    ).format(count=len(record.actions))
    print(f"{game_title(match.game)}, {players}; {actions}")
    if outcome is None:
        print(_("The game is not finished."))
        return 0
    for seat in sorted(range(len(names)), key=lambda s: outcome.ranks[s]):
        mark = "  " + _("winner") if seat in outcome.winners else ""
        line = _("{rank}. {name} (seat {seat}): {score}").format(
            rank=outcome.ranks[seat],
            name=names[seat],
            seat=seat,
            score=current().number(outcome.scores[seat]),
        )
        print(f"  {line}{mark}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from .tui.launch import play_config, run_play

    _check_assist(args, "protect-me", args.protect_me)
    _check_assist(args, "learning", args.learning)
    if args.resume is not None:
        from .tui.launch import resume_config

        if args.game is not None or args.players is not None or args.opponents or args.option:
            raise OptionError(
                _(
                    "--resume continues a saved game as it was: give no GAME, --players, "
                    "--opponents or --option with it"
                )
            )
        return run_play(resume_config(args.resume or None, save=args.save))
    config = play_config(
        args.game,
        players=args.players,
        opponents=args.opponents or (),
        options=args.option or (),
        seed=args.seed,
        save=args.save,
        protect_me=args.protect_me,
        learning=args.learning,
    )
    return run_play(config)


def _games_offering(assist: str) -> list[Game[Any]]:
    """The games that offer the player aid ``assist`` (``Game.assists``)."""
    return [g for g in all_games() if assist in g.assists]


def _check_assist(args: argparse.Namespace, assist: str, asked: bool) -> None:
    """Refuse ``--protect-me`` or ``--learning`` for a game that does not offer it."""
    if not asked or (args.game is not None and assist in get(args.game).assists):
        return
    games = _games_offering(assist)
    if assist == "protect-me":
        message = _(
            "--protect-me is for {games} only (it refuses claims that would be penalised); "
            "start with 'campfire play {name} --protect-me'"
        )
    else:
        message = _(
            "--learning is for {games} only (it marks the positions you have peeked at); "
            "start with 'campfire play {name} --learning'"
        )
    raise OptionError(
        message.format(
            games=", ".join(game_title(g) for g in games) or "-",
            name=games[0].name if games else "GAME",
        )
    )


def _cmd_bench(args: argparse.Namespace) -> int:
    from .bench import bench_game

    games = [get(args.game)] if args.game else all_games()
    if args.players is not None:
        for game in games:
            game.check_players(args.players)
    results = []
    for game in games:
        if not args.json:
            print(
                _("benchmarking {game} for {seconds} s ...").format(
                    game=game.name, seconds=f"{args.seconds:g}"
                ),
                file=sys.stderr,
            )
        results.append(bench_game(game, args.seconds, players=args.players, runs=args.runs))
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=2))
        return 0
    heads = (_("game").ljust(10), _("players").rjust(7), _("actions/s").rjust(12))
    print(" ".join((*heads, _("games/s").rjust(10), _("actions/game").rjust(13))))
    number = current().number  # as the language writes numbers (1 234,5 in Hungarian)
    for r in results:
        print(
            f"{r.game:<10} {r.players:>7} {number(r.actions_per_second, 0):>12} "
            f"{number(r.games_per_second, 1):>10} {number(r.actions_per_game, 1):>13}"
        )
    print(_("(random legal actions, one process; median of {runs} runs)").format(runs=args.runs))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``campfire`` command."""
    parser = _Parser(
        prog="campfire",
        description=_("Campfire: play, learn, replay and simulate the card games {games}.").format(
            games=and_list([game_title(g) for g in all_games()])
        ),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"campfire {__version__}",
        help=_("show program's version number and exit"),
    )
    _add_lang(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("games", help=_("list the games, their player ranges and options"))
    p.add_argument("--json", action="store_true", help=_("print the list as JSON"))
    p.set_defaults(func=_cmd_games)

    p = sub.add_parser(
        "rules",
        help=_("print the complete rules of a game (formatted in a terminal, Markdown when piped)"),
    )
    p.add_argument("game", metavar="GAME", help=_("the game's name (see 'campfire games')"))
    p.add_argument(
        "--plain", action="store_true", help=_("print the Markdown source even in a terminal")
    )
    p.set_defaults(func=_cmd_rules)

    p = sub.add_parser("replay", help=_("verify a game record and print its outcome"))
    p.add_argument("file", metavar="FILE", help=_("a JSON game record ('-' for standard input)"))
    p.add_argument(
        "--json", action="store_true", help=_("print the final spectator view and outcome as JSON")
    )
    p.add_argument(
        "--watch", action="store_true", help=_("step through the record in the terminal UI")
    )
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("play", help=_("play a game in the terminal against bots or friends"))
    p.add_argument("game", metavar="GAME", nargs="?", help=_("the game (default: a start screen)"))
    p.add_argument(
        "--players",
        type=int_arg("the player count", 0, MAX_PLAYERS_ARG),
        default=None,
        help=_("number of players"),
    )
    p.add_argument(
        "--opponents",
        nargs="+",
        metavar="LEVEL",
        help=_("per opponent seat: easy, medium, hard, human (hot seat) or an agent spec"),
    )
    p.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help=_("a game option (repeatable)")
    )
    p.add_argument(
        "--seed",
        type=seed_arg,
        default=None,
        help=_("seed of the deal, 0 … 2**63 - 1 (default: random)"),
    )
    p.add_argument("--save", metavar="PATH", default=None, help=_("where to save the record"))
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="PATH",
        help=_(
            "continue an unfinished game (saved on Ctrl+Q or when the terminal closed): "
            "the newest one, or the record at PATH"
        ),
    )
    p.add_argument(
        "--protect-me",
        action="store_true",
        help=_("refuse claims that would be penalised (in {games})").format(
            games=", ".join(game_title(g) for g in _games_offering("protect-me")) or "-"
        ),
    )
    p.add_argument(
        "--learning",
        action="store_true",
        help=_("mark the positions you have peeked at (in {games})").format(
            games=", ".join(game_title(g) for g in _games_offering("learning")) or "-"
        ),
    )
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("bench", help=_("measure engine throughput with random games"))
    p.add_argument("game", metavar="GAME", nargs="?", help=_("one game (default: all games)"))
    p.add_argument(
        "--seconds",
        type=_seconds_arg,
        default=5.0,
        help=_("time per game, at most {most} (default 5)").format(most=MAX_BENCH_SECONDS),
    )
    p.add_argument(
        "--players",
        type=int_arg("the player count", 0, MAX_PLAYERS_ARG),
        default=None,
        help=_("player count (default 4 or nearest)"),
    )
    p.add_argument(
        "--runs",
        type=int_arg("the number of runs", 1, 50),
        default=5,
        metavar="RUNS",
        help=_("runs to take the median of, 1–50 (default 5)"),
    )
    p.add_argument("--json", action="store_true", help=_("print the figures as JSON"))
    p.set_defaults(func=_cmd_bench)

    from .review_cli import add_review_command

    add_review_command(sub)  # review FILE
    from .arena.cli import add_arena_commands

    add_arena_commands(sub)  # sim, rate

    from .server.cli import add_serve_command

    add_serve_command(sub)  # serve (needs the server extra only to run)
    from .server.admin import add_admin_command

    add_admin_command(sub)  # admin backup|restore|tables|close|purge
    for command in sub.choices.values():  # --lang after any command too ('rules GAME --lang hu')
        _add_lang(command)
        for action in command._actions:  # and after a command's own actions ('admin tables')
            if isinstance(action, argparse._SubParsersAction):
                for nested in action.choices.values():
                    _add_lang(nested)
    return parser


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        type=_language_arg,
        default=argparse.SUPPRESS,
        metavar="LANG",
        help=_("the language: {languages} (default: $CAMPFIRE_LANG, then the system's)").format(
            languages=", ".join(LANGUAGES)
        ),
    )


def _language_in(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (read before the parser, whose texts it chooses)."""
    for i, item in enumerate(argv):
        if item == "--":
            break
        if item == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if item.startswith("--lang="):
            return item.partition("=")[2]
    return None


def _language(argv: Sequence[str]) -> str:
    """The language of this run: ``--lang``, then ``CAMPFIRE_LANG``, the locale, English.

    A ``--lang`` that names no language Campfire speaks is left for the parser to refuse, in
    the language chosen without it.
    """
    try:
        return resolve_language(_language_in(argv))
    except OptionError:
        return resolve_language(None)


def _subcommand_parser(parser: argparse.ArgumentParser, command: str | None) -> Any:
    """The parser of ``command`` (``parser`` itself when there is none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``campfire`` command; return its exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    with use_language(_language(args_list)) as tr, argparse_language(tr):
        return _main(args_list)


def _main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # name the subcommand whose help lists what it accepts
            sub = _subcommand_parser(parser, getattr(args, "command", None))
            sub.error(_("unrecognized arguments: %s") % " ".join(extra))
    except SystemExit as exc:  # a usage error (already printed as one line), --help, --version
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help()
        print()
        print(_("Games:"))
        print(games_table())
        return 0
    try:
        result: int = args.func(args)
    except CampfireError as exc:
        print(
            _("campfire: error: {message}").format(message=current().error(exc)),
            file=sys.stderr,
        )
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. 'campfire games | head'
        return 0
    except KeyboardInterrupt:
        print(_("campfire: interrupted"), file=sys.stderr)
        return 130
    return result


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
