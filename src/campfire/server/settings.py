"""``campfire serve``'s settings: the command line, the environment, a settings file.

Every option of ``campfire serve`` is also a setting, found in this order (the first that has
it wins):

1. the command line (``--workers 4``);
2. the environment: ``CAMPFIRE_`` and the option's name in capitals, ``-`` as ``_``
   (``CAMPFIRE_WORKERS=4``, ``CAMPFIRE_DATABASE_URL=…``);
3. the settings file named by ``--config PATH`` or ``CAMPFIRE_CONFIG`` (TOML, read with
   :mod:`tomllib`): the option's name with ``_`` for ``-`` as the key (``workers = 4``);
4. the built-in default.

Nothing here names an option: the settings are the options of the ``serve`` parser as they are
when it parses (:func:`settings_of`), so an option added to the parser is a setting too, with
the same checks (its ``type`` and ``choices``). A value that fails them is an
:class:`~campfire.core.OptionError` naming where it came from (``CAMPFIRE_WORKERS: …``,
``settings file /etc/campfire/campfire.toml, key workers: …``); a key of the file that is no
setting is refused with the list of those that are. ``docs/deploy.md`` ("Settings") holds the
table :func:`markdown_table` writes (``python -m campfire.server.settings_table``; a test keeps
it equal to the parser's).

How the command line is told apart from a default: while :class:`SettingsParser` parses, each
option's default is :data:`UNSET` (``None`` for an option that collects a list), and
:func:`resolve` fills what is still unset from the environment, the file or the real default.
"""

from __future__ import annotations

import argparse
import json
import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from campfire.core import ErrorText, OptionError

from .logs import redact

__all__ = [
    "CONFIG_VARIABLE",
    "ENV_PREFIX",
    "UNSET",
    "Resolved",
    "Setting",
    "SettingsParser",
    "add_settings_arguments",
    "exposed_secrets",
    "markdown_table",
    "read_settings_file",
    "render",
    "resolve",
    "settings_of",
    "stray_variables",
]

#: the prefix of the settings' environment variables
ENV_PREFIX = "CAMPFIRE_"
#: the environment variable that names the settings file (as ``--config`` does)
CONFIG_VARIABLE = "CAMPFIRE_CONFIG"
#: the options that are not settings themselves (they say where the settings are)
NOT_SETTINGS = ("config", "print_config")
#: words that mark an option whose value is a secret (shown as ``***`` by ``--print-config``)
SECRET_WORDS = ("password", "secret", "token")
#: how :attr:`Resolved.source` starts for a value from the settings file
SETTINGS_FILE = "settings file "
#: the most bytes a settings file may hold
MAX_FILE_BYTES = 1 << 20

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


class _Unset:
    """The default of an option while the command line is parsed: not given there."""

    def __repr__(self) -> str:
        return "UNSET"


#: an option the command line did not give (replaced by :func:`resolve`)
UNSET: Any = _Unset()


@dataclass(frozen=True)
class Setting:
    """One option of ``campfire serve`` as a setting."""

    action: argparse.Action
    #: ``"value"`` (one value), ``"flag"`` (on or off: ``true``/``false``), ``"list"``
    kind: str
    #: the built-in default (the parser's)
    default: Any

    @property
    def dest(self) -> str:
        """The attribute of the parsed arguments (``database_url``)."""
        return self.action.dest

    @property
    def option(self) -> str:
        """The long option of the command line (``--database-url``)."""
        longs = [s for s in self.action.option_strings if s.startswith("--")]
        return (longs or list(self.action.option_strings))[0]

    @property
    def key(self) -> str:
        """The key in the settings file (``database_url``)."""
        return self.option.lstrip("-").replace("-", "_")

    @property
    def variable(self) -> str:
        """The environment variable (``CAMPFIRE_DATABASE_URL``)."""
        return ENV_PREFIX + self.key.upper()

    @property
    def secret(self) -> bool:
        """Whether the value is shown as ``***`` (its name says password, secret or token).

        A setting that names a file (``secret_key_file``) holds a path, not the secret: shown.
        """
        return any(word in self.key for word in SECRET_WORDS) and not self.key.endswith("_file")


def _kind(action: argparse.Action) -> str:
    flags = (
        argparse._StoreTrueAction,
        argparse._StoreFalseAction,
        argparse.BooleanOptionalAction,
    )
    if isinstance(action, flags) or action.nargs == 0:
        return "flag"
    if isinstance(action, (argparse._AppendAction, argparse._ExtendAction)) or action.nargs in (
        "*",
        "+",
    ):
        return "list"
    if isinstance(action.nargs, int) and action.nargs > 1:
        return "list"
    return "value"


def _is_setting(action: argparse.Action) -> bool:
    return (
        bool(action.option_strings)
        and action.dest not in NOT_SETTINGS
        and action.default is not argparse.SUPPRESS  # --help, --version, the global --lang
        and not isinstance(action, argparse._CountAction)
    )


def settings_of(parser: argparse.ArgumentParser) -> list[Setting]:
    """The settings of ``parser``: each of its options but a few.

    Left out: ``--config``, ``--print-config``, ``--help`` and those without a default of their
    own (the global ``--lang``).
    """
    found = []
    for action in parser._actions:
        if _is_setting(action):
            default = getattr(parser, "_real_defaults", {}).get(action.dest, action.default)
            found.append(Setting(action, _kind(action), default))
    return found


class SettingsParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that leaves the options it is not given unset.

    While it parses, every setting's default is :data:`UNSET` (``None`` for a list), so the
    parsed arguments say which options the command line gave; :func:`resolve` fills the rest.
    The parser's defaults are its own again afterwards (``--help``, :func:`settings_of`).
    """

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse ``args`` with every setting unset unless given."""
        settings = settings_of(self)
        saved = {s.dest: s.default for s in settings}
        self._real_defaults = saved
        for setting in settings:
            setting.action.default = None if setting.kind == "list" else UNSET
        try:
            return super().parse_known_args(args, namespace)
        finally:
            for setting in settings:
                setting.action.default = saved[setting.dest]
            del self._real_defaults


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--config`` and ``--print-config`` to ``parser`` and make it a :class:`SettingsParser`.

    The help texts are the caller's (translated where the parser is built).
    """
    from campfire.i18n import _

    parser.__class__ = SettingsParser
    parser.set_defaults(settings_parser=parser)
    parser.add_argument(
        "--config",
        metavar="PATH",
        default=None,
        help=_(
            "a settings file (TOML) with any of these options, key = the option's name with _ "
            "for - (default: $CAMPFIRE_CONFIG, else none); an option is taken from the command "
            "line, else from CAMPFIRE_<OPTION> in the environment, else from this file "
            '(docs/deploy.md, "Settings")'
        ),
    )
    parser.add_argument(
        "--print-config",
        action="store_true",
        help=_(
            "print the settings in force, each with where it came from (secrets masked), "
            "as a settings file, and exit without serving"
        ),
    )


# ----- reading values --------------------------------------------------------------------------


def _fail(source: str, problem: str) -> OptionError:
    return OptionError(ErrorText("{source}: {problem}", source=source, problem=problem))


def _convert(setting: Setting, text: str, source: str) -> Any:
    """``text`` through the option's ``type`` and ``choices``, as the command line is."""
    action = setting.action
    value: Any = text
    if action.type is not None and callable(action.type):
        try:
            value = action.type(text)
        except argparse.ArgumentTypeError as exc:
            raise _fail(source, str(exc)) from None
        except (TypeError, ValueError):
            raise _fail(
                source,
                ErrorText(
                    "{option} does not take {value}", option=setting.option, value=repr(text[:60])
                ),
            ) from None
    if action.choices is not None and value not in action.choices:
        raise _fail(
            source,
            ErrorText(
                "{option} is one of {choices} (got {value})",
                option=setting.option,
                choices=", ".join(str(c) for c in action.choices),
                value=repr(text[:60]),
            ),
        )
    return value


def _flag_value(setting: Setting, on: bool) -> Any:
    """A flag's value: ``on`` is as if the option were given (``--no-cache``: ``False``)."""
    if isinstance(setting.action, argparse.BooleanOptionalAction):
        return on  # --metrics / --no-metrics: the setting is the value itself
    return setting.action.const if on else setting.default


def _from_text(setting: Setting, text: str, source: str) -> Any:
    """A setting's value written as text (an environment variable)."""
    if setting.kind == "flag":
        word = text.strip().lower()
        if word in _TRUE or word in _FALSE:
            return _flag_value(setting, word in _TRUE)
        raise _fail(
            source,
            ErrorText(
                "{option} is on or off: one of {words} (got {value})",
                option=setting.option,
                words=", ".join(_TRUE + _FALSE),
                value=repr(text[:60]),
            ),
        )
    if setting.kind == "list":
        return [_convert(setting, item.strip(), source) for item in text.split(",") if item.strip()]
    return _convert(setting, text, source)


def _scalar_text(setting: Setting, value: Any, source: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _fail(
            source,
            ErrorText(
                "{option} takes a string or a number here (got {value})",
                option=setting.option,
                value=_toml(value)[:60],
            ),
        )
    return str(value)


def _from_file(setting: Setting, value: Any, source: str) -> Any:
    """A setting's value as TOML has it: a string or number, a boolean, an array."""
    if setting.kind == "flag":
        if not isinstance(value, bool):
            raise _fail(
                source,
                ErrorText(
                    "{option} is true or false (got {value})",
                    option=setting.option,
                    value=_toml(value)[:60],
                ),
            )
        return _flag_value(setting, value)
    if setting.kind == "list":
        items = value if isinstance(value, list) else [value]
        return [_convert(setting, _scalar_text(setting, item, source), source) for item in items]
    return _convert(setting, _scalar_text(setting, value, source), source)


def read_settings_file(path: str | Path, known: Iterable[str]) -> dict[str, Any]:
    """The settings file at ``path`` as a table.

    :class:`~campfire.core.OptionError` if it cannot be read, is no TOML, or has a key not in
    ``known``.
    """
    where = ErrorText("settings file {path}", path=str(path))
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise _fail(where, exc.strerror or str(exc)) from None
    if len(data) > MAX_FILE_BYTES:
        raise _fail(where, ErrorText("larger than {limit} bytes", limit=MAX_FILE_BYTES))
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise _fail(where, ErrorText("not UTF-8 text")) from None
    except tomllib.TOMLDecodeError as exc:
        raise _fail(where, ErrorText("not TOML: {problem}", problem=str(exc))) from None
    names = sorted(known)
    unknown = sorted(k for k in table if k not in names)
    if unknown:
        raise _fail(
            where,
            ErrorText(
                "no setting is called {keys}; the settings are: {known}",
                keys=", ".join(unknown),
                known=", ".join(names),
            ),
        )
    return table


# ----- resolving --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Resolved:
    """One setting's value in force and where it came from."""

    setting: Setting
    value: Any
    #: ``"command line"``, ``"CAMPFIRE_…"`` (the environment), ``"settings file PATH"``,
    #: ``"default"``
    source: str


def resolve(
    args: argparse.Namespace,
    parser: argparse.ArgumentParser | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[Resolved]:
    """Fill every option of ``args`` the command line left unset; what each is and whence.

    ``parser`` is the one that parsed ``args`` (a :class:`SettingsParser`; default: the one
    :func:`add_settings_arguments` noted in ``args``); ``environ`` defaults to
    :data:`os.environ`. Raises :class:`~campfire.core.OptionError` for a value
    the option refuses, naming the variable or the file and key it came from.
    """
    env = os.environ if environ is None else environ
    settings = settings_of(parser if parser is not None else args.settings_parser)
    config: str | None = getattr(args, "config", None) or env.get(CONFIG_VARIABLE) or None
    table = read_settings_file(config, [s.key for s in settings]) if config else {}
    resolved = []
    for setting in settings:
        value = getattr(args, setting.dest, UNSET)
        given = value is not UNSET and not (setting.kind == "list" and value is None)
        if given:
            source = "command line"
        elif setting.variable in env:
            source = setting.variable
            value = _from_text(setting, env[setting.variable], source)
        elif config is not None and setting.key in table:
            source = SETTINGS_FILE + config
            value = _from_file(
                setting,
                table[setting.key],
                ErrorText("settings file {path}, key {key}", path=config, key=setting.key),
            )
        else:
            source = "default"
            value = setting.default
        setattr(args, setting.dest, value)
        resolved.append(Resolved(setting, value, source))
    return resolved


#: variables of Campfire's that are no setting of ``campfire serve`` (their prefixes)
OTHER_VARIABLES = (
    CONFIG_VARIABLE,
    "CAMPFIRE_LANG",
    "CAMPFIRE_DATA_DIR",
    "CAMPFIRE_SERVE_",  # what campfire serve passes to its worker processes
    "CAMPFIRE_TEST_",
    "CAMPFIRE_CHROMIUM",
    "CAMPFIRE_PURE_PYTHON",  # the compiled build's switch (docs/compiled.md)
    "CAMPFIRE_COMPILE",
)


def stray_variables(
    parser: argparse.ArgumentParser, environ: Mapping[str, str] | None = None
) -> list[str]:
    """``CAMPFIRE_…`` variables of ``environ`` that name no setting (a misspelt one?).

    Leaves out the variables Campfire reads for something else (:data:`OTHER_VARIABLES`).
    """
    env = os.environ if environ is None else environ
    known = {s.variable for s in settings_of(parser)}
    return sorted(
        name
        for name in env
        if name.startswith(ENV_PREFIX)
        and name not in known
        and not name.startswith(OTHER_VARIABLES)
    )


def exposed_secrets(resolved: Sequence[Resolved]) -> list[tuple[str, str]]:
    """The secrets taken from a settings file that other users may read: (file, key) pairs.

    A secret is a URL with a password, or a setting named as one (:attr:`Setting.secret`);
    "others" are the group and everyone (any of the mode's bits ``0o077``).
    """
    found = []
    for item in resolved:
        if not item.source.startswith(SETTINGS_FILE) or item.value in (None, "", []):
            continue
        written = _toml(_as_written(item.setting, item.value))
        if not (item.setting.secret or redact(written) != written):
            continue
        path = item.source[len(SETTINGS_FILE) :]
        try:
            shared = os.stat(path).st_mode & 0o077
        except OSError:
            continue
        if shared:
            found.append((path, item.setting.key))
    return found


# ----- showing them -----------------------------------------------------------------------------


def _toml(value: Any) -> str:
    """``value`` written as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def _as_written(setting: Setting, value: Any) -> Any:
    """``value`` as the settings file would hold it.

    An option of one value whose type made a list of it (addresses separated by commas) is
    written back as that one string.
    """
    if setting.kind == "value" and isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(str(item) for item in value)
    return value


def _shown(setting: Setting, value: Any) -> str:
    if setting.secret and value not in (None, "", []):
        return _toml("***")
    return redact(_toml(_as_written(setting, value)))


def _source_label(source: str) -> str:
    """A :attr:`Resolved.source` in the language of the run."""
    from campfire.i18n import _

    if source == "command line":
        return _("command line")
    if source == "default":
        return _("default")
    if source.startswith(SETTINGS_FILE):
        return _("settings file {path}").format(path=source[len(SETTINGS_FILE) :])
    return source


def render(resolved: Sequence[Resolved]) -> str:
    """The settings in force as a settings file, each with its source in a comment.

    A password in a URL and a setting named as a secret are shown as ``***``; a setting
    without a value (``None``: the server chooses, e.g. the default database) is commented out.
    """
    from campfire.i18n import _

    lines = [
        "# " + _("campfire serve: the settings in force"),
        "# "
        + _("(command line, else CAMPFIRE_<OPTION>, else the settings file, else the default)"),
    ]
    not_set = _("not set")
    for item in resolved:
        source = _source_label(item.source)
        if item.value is None:
            lines.append(f"# {item.setting.key} = ({not_set})  # {source}")
        else:
            shown = _shown(item.setting, item.value)
            lines.append(f"{item.setting.key} = {shown}  # {source}")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _default_cell(setting: Setting) -> str:
    default = setting.default
    if default is None or default == []:
        return "(none)"
    if setting.kind == "flag":
        return "`true`" if default is True else "`false`" if default is False else f"`{default}`"
    return f"`{_toml(_as_written(setting, default))}`"


def markdown_table(parser: argparse.ArgumentParser) -> str:
    """The settings of ``parser`` as the Markdown table of ``docs/deploy.md`` ("Settings")."""
    rows = [
        "| option | environment variable | file key | default | meaning |",
        "|---|---|---|---|---|",
    ]
    for setting in settings_of(parser):
        meaning = setting.action.help if isinstance(setting.action.help, str) else ""
        if setting.action.choices is not None:
            choices = ", ".join(f"`{c}`" for c in setting.action.choices)
            meaning = f"{meaning} (one of {choices})" if meaning else f"one of {choices}"
        rows.append(
            f"| `{setting.option}` | `{setting.variable}` | `{setting.key}` | "
            f"{_default_cell(setting)} | {_cell(meaning)} |"
        )
    return "\n".join(rows) + "\n"
