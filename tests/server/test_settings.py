"""``campfire serve``'s settings: command line > ``CAMPFIRE_<OPTION>`` > settings file > default.

The settings are derived from the ``serve`` parser, so the tests use the real parser (through
``campfire serve --print-config``, which prints the settings in force as a settings file) and a
parser with one option of each kind argparse offers (what another option added later will be).
"""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path
from typing import Any

import pytest

from campfire.cli import _subcommand_parser, build_parser, main
from campfire.core import OptionError
from campfire.core.validate import int_arg
from campfire.i18n import use_language
from campfire.server import settings as settings_module
from campfire.server import settings_table
from campfire.server.settings import (
    CONFIG_VARIABLE,
    add_settings_arguments,
    markdown_table,
    resolve,
    settings_of,
)
from campfire.server.settings_table import TABLE_BEGIN, TABLE_END

DOCS = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting leaks in from the environment the tests run in."""
    for setting in settings_of(_serve_parser()):
        monkeypatch.delenv(setting.variable, raising=False)
    monkeypatch.delenv(CONFIG_VARIABLE, raising=False)


def _serve_parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = _subcommand_parser(build_parser(), "serve")
    return parser


def _printed(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[dict[str, Any], str]:
    """``campfire serve ARGS --print-config``: the settings as TOML, and the text."""
    with use_language("en"):
        assert main(["serve", *args, "--print-config"]) == 0
    text = capsys.readouterr().out
    return tomllib.loads(text), text


def _error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with use_language("en"):
        assert main(["serve", *args, "--print-config"]) == 2
    return capsys.readouterr().err


def _source(text: str, key: str) -> str:
    for line in text.splitlines():
        if line.startswith(f"{key} = ") or line.startswith(f"# {key} = "):
            return line.rpartition("  # ")[2]
    raise AssertionError(f"{key} is not printed:\n{text}")


# ----- the order ---------------------------------------------------------------------------------


def test_defaults_when_nothing_is_set(capsys: pytest.CaptureFixture[str]) -> None:
    values, text = _printed(capsys)
    assert values["port"] == 8000 and values["workers"] == 1 and values["host"] == "127.0.0.1"
    assert values["log_format"] == "text" and values["log_level"] == "info"
    assert "database_url" not in values  # no value: the server picks its SQLite file
    assert _source(text, "database_url") == "default"
    assert {_source(text, s.key) for s in settings_of(_serve_parser())} == {"default"}


def test_command_line_beats_environment_beats_file_beats_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "campfire.toml"
    config.write_text(
        'port = 9001\nworkers = 3\nlog_format = "json"\nhost = "0.0.0.0"\n', encoding="utf-8"
    )
    monkeypatch.setenv("CAMPFIRE_PORT", "9002")
    monkeypatch.setenv("CAMPFIRE_WORKERS", "4")
    values, text = _printed(capsys, "--config", str(config), "--port", "9003")
    assert values["port"] == 9003 and _source(text, "port") == "command line"
    assert values["workers"] == 4 and _source(text, "workers") == "CAMPFIRE_WORKERS"
    assert values["log_format"] == "json"
    assert _source(text, "log_format") == f"settings file {config}"
    assert values["log_level"] == "info" and _source(text, "log_level") == "default"
    # the file may also be named in the environment
    monkeypatch.setenv(CONFIG_VARIABLE, str(config))
    values, _ = _printed(capsys)
    assert (values["host"], values["workers"], values["port"]) == ("0.0.0.0", 4, 9002)


def test_the_printed_settings_are_a_settings_file_that_gives_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CAMPFIRE_WS_COMPRESSION", "off")
    first, text = _printed(capsys, "--port", "8123", "--log-level", "warning")
    config = tmp_path / "printed.toml"
    config.write_text(text, encoding="utf-8")
    monkeypatch.delenv("CAMPFIRE_WS_COMPRESSION")
    again, text = _printed(capsys, "--config", str(config))
    assert again == first
    assert _source(text, "ws_compression") == f"settings file {config}"


def test_every_option_of_serve_is_a_setting_with_its_own_names() -> None:
    parser = _serve_parser()
    settings = settings_of(parser)
    by_dest = {s.dest for s in settings}
    for action in parser._actions:
        if not action.option_strings:
            continue
        if action.dest in ("help", "lang", "config", "print_config"):
            assert action.dest not in by_dest
        else:
            assert action.dest in by_dest, f"{action.option_strings} is not a setting"
    variables = [s.variable for s in settings]
    assert len(set(variables)) == len(variables) and len({s.key for s in settings}) == len(settings)
    # none takes the name of a variable Campfire already reads for something else
    taken = {"CAMPFIRE_LANG", "CAMPFIRE_DATA_DIR", CONFIG_VARIABLE}
    assert not taken & set(variables)
    assert not [v for v in variables if v.startswith("CAMPFIRE_SERVE_")]  # the workers' own
    for setting in settings:
        assert setting.variable == "CAMPFIRE_" + setting.option[2:].upper().replace("-", "_")
        assert setting.key == setting.option[2:].replace("-", "_")


# ----- refusals name where the value came from ------------------------------------------------


def test_a_bad_value_in_the_environment_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CAMPFIRE_WORKERS", "0")
    err = _error(capsys)
    assert "CAMPFIRE_WORKERS: " in err and "--workers" in err and "1" in err and "64" in err
    monkeypatch.setenv("CAMPFIRE_WORKERS", "2")
    monkeypatch.setenv("CAMPFIRE_LOG_FORMAT", "xml")
    err = _error(capsys)
    assert "CAMPFIRE_LOG_FORMAT: --log-format is one of text, json (got 'xml')" in err
    # the command line wins: a bad variable it overrides is never read
    monkeypatch.delenv("CAMPFIRE_WORKERS")
    values, _ = _printed(capsys, "--log-format", "json")
    assert values["log_format"] == "json"


def test_a_bad_value_in_the_file_names_the_file_and_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    for body, expected in [
        ("port = 70000", "key port: --port"),
        ("port = true", "key port: --port takes a string or a number here (got true)"),
        ("port = [1, 2]", "key port: --port takes a string or a number here"),
        ('log_level = "loud"', "key log_level: --log-level is one of debug, info"),
        ("lease_seconds = 1.5", "key lease_seconds: --lease-seconds"),
    ]:
        config.write_text(body + "\n", encoding="utf-8")
        err = _error(capsys, "--config", str(config))
        assert f"settings file {config}, {expected}" in err, (body, err)


def test_a_settings_file_with_an_unknown_key_lists_the_known_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    config.write_text("prot = 8000\nworkerz = 2\n", encoding="utf-8")
    err = _error(capsys, "--config", str(config))
    assert "no setting is called prot, workerz; the settings are: " in err
    known = err.partition("the settings are: ")[2]
    assert all(s.key in known for s in settings_of(_serve_parser()))


def test_a_settings_file_that_is_missing_or_no_toml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.toml"
    assert f"settings file {missing}: No such file or directory" in _error(
        capsys, "--config", str(missing)
    )
    broken = tmp_path / "broken.toml"
    broken.write_text("port = = 1\n", encoding="utf-8")
    assert f"settings file {broken}: not TOML: " in _error(capsys, "--config", str(broken))
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * (settings_module.MAX_FILE_BYTES + 1))
    assert "larger than" in _error(capsys, "--config", str(huge))


def test_a_secret_is_never_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CAMPFIRE_DATABASE_URL", "postgresql+psycopg://campfire:hunter2@db/games")
    config = tmp_path / "c.toml"
    config.write_text('redis_url = "redis://:s3cret@127.0.0.1:6379/0"\n', encoding="utf-8")
    values, text = _printed(capsys, "--config", str(config))
    assert "hunter2" not in text and "s3cret" not in text
    assert values["database_url"] == "postgresql+psycopg://campfire:***@db/games"
    assert values["redis_url"] == "redis://:***@127.0.0.1:6379/0"


# ----- any option the parser has ----------------------------------------------------------------


def _any_parser() -> argparse.ArgumentParser:
    """A parser with one option of each kind, made a settings parser as ``serve``'s is."""
    parser = argparse.ArgumentParser(prog="any")
    parser.add_argument("--count", type=int_arg("--count", 0, 9), default=3)
    parser.add_argument("--mode", choices=("a", "b"), default="a")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--no-cache", dest="cache", action="store_false")
    parser.add_argument("--metrics", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--allow", action="append", type=int_arg("--allow", 0, 99))
    parser.add_argument("--api-secret", default=None)
    add_settings_arguments(parser)
    return parser


def _resolve(
    argv: list[str], environ: dict[str, str], config: Path | None = None
) -> dict[str, tuple[Any, str]]:
    parser = _any_parser()
    args = parser.parse_args([*argv, *(["--config", str(config)] if config else [])])
    return {r.setting.key: (r.value, r.source) for r in resolve(args, parser, environ)}


def test_options_of_every_kind_from_the_environment() -> None:
    assert _resolve([], {})["count"] == (3, "default")
    got = _resolve(
        [],
        {
            "CAMPFIRE_COUNT": "7",
            "CAMPFIRE_MODE": "b",
            "CAMPFIRE_VERBOSE": "yes",
            "CAMPFIRE_NO_CACHE": "true",
            "CAMPFIRE_METRICS": "off",
            "CAMPFIRE_ALLOW": "1, 2,3",
        },
    )
    assert got["count"] == (7, "CAMPFIRE_COUNT") and got["mode"] == ("b", "CAMPFIRE_MODE")
    assert got["verbose"] == (True, "CAMPFIRE_VERBOSE")
    assert got["no_cache"] == (False, "CAMPFIRE_NO_CACHE")  # --no-cache given: cache is off
    assert got["metrics"] == (False, "CAMPFIRE_METRICS")
    assert got["allow"] == ([1, 2, 3], "CAMPFIRE_ALLOW")
    # the command line still wins, flags and lists too
    got = _resolve(
        ["--metrics", "--allow", "5"],
        {"CAMPFIRE_METRICS": "0", "CAMPFIRE_ALLOW": "1"},
    )
    assert got["metrics"] == (True, "command line") and got["allow"] == ([5], "command line")
    with pytest.raises(OptionError, match="CAMPFIRE_VERBOSE: --verbose is on or off"):
        _resolve([], {"CAMPFIRE_VERBOSE": "maybe"})
    with pytest.raises(OptionError, match="CAMPFIRE_ALLOW: --allow must be"):
        _resolve([], {"CAMPFIRE_ALLOW": "1,100"})


def test_options_of_every_kind_from_the_file(tmp_path: Path) -> None:
    config = tmp_path / "any.toml"
    config.write_text(
        'count = 8\nmode = "b"\nverbose = true\nno_cache = true\nallow = [4, "5"]\n',
        encoding="utf-8",
    )
    got = _resolve(["--count", "1"], {}, config)
    assert got["count"] == (1, "command line")
    assert got["mode"][0] == "b" and got["verbose"][0] is True and got["no_cache"][0] is False
    assert got["allow"][0] == [4, 5] and got["metrics"] == (True, "default")
    config.write_text("verbose = 1\n", encoding="utf-8")
    with pytest.raises(OptionError, match="key verbose: --verbose is true or false"):
        _resolve([], {}, config)


def test_the_parser_keeps_its_real_defaults_for_help() -> None:
    parser = _any_parser()
    parser.parse_args([])
    assert parser.get_default("count") == 3 and parser.get_default("metrics") is True
    assert {s.key: s.secret for s in settings_of(parser)}["api_secret"]


# ----- the documented table --------------------------------------------------------------------


def test_docs_deploy_md_lists_every_setting_as_the_parser_has_it() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert TABLE_BEGIN in text and TABLE_END in text
    documented = text.partition(TABLE_BEGIN)[2].partition(TABLE_END)[0].strip()
    with use_language("en"):
        expected = markdown_table(_serve_parser()).strip()
    assert documented == expected, (
        "docs/deploy.md's settings table is out of date: "
        "python -m campfire.server.settings_table docs/deploy.md rewrites it"
    )
    for setting in settings_of(_serve_parser()):
        assert f"`{setting.variable}`" in documented and f"`{setting.key}`" in documented


def test_the_table_writer_rewrites_a_stale_table_between_its_lines(tmp_path: Path) -> None:
    doc = tmp_path / "deploy.md"
    doc.write_text(f"# Deploy\n{TABLE_BEGIN}\n| old |\n{TABLE_END}\nafter\n", encoding="utf-8")
    assert settings_table.main([str(doc)]) == 0
    with use_language("en"):
        table = markdown_table(settings_table.serve_parser())
    assert (
        doc.read_text(encoding="utf-8") == f"# Deploy\n{TABLE_BEGIN}\n{table}{TABLE_END}\nafter\n"
    )
    (tmp_path / "other.md").write_text("no table here\n", encoding="utf-8")
    assert settings_table.main([str(tmp_path / "other.md")]) == 1


def test_a_variable_that_names_no_setting_is_pointed_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CAMPFIRE_WORKER", "4")  # misspelt: CAMPFIRE_WORKERS
    monkeypatch.setenv("CAMPFIRE_DATA_DIR", "/nowhere")  # Campfire's own, for something else
    monkeypatch.setenv("CAMPFIRE_SERVE_LIMITS", "{}")  # for the worker processes
    monkeypatch.setenv("CAMPFIRE_PURE_PYTHON", "1")  # the compiled build's switch
    monkeypatch.setenv("CAMPFIRE_COMPILE", "1")
    values, text = _printed(capsys)
    assert values["workers"] == 1
    assert "# CAMPFIRE_WORKER is set, but no setting is called so" in text
    assert settings_module.stray_variables(_serve_parser()) == ["CAMPFIRE_WORKER"]


def test_a_secret_in_a_settings_file_others_may_read_is_warned_of(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(
        'database_url = "postgresql+psycopg://campfire:hunter2@db/games"\nport = 8001\n',
        encoding="utf-8",
    )
    parser = _serve_parser()

    def exposed() -> list[tuple[str, str]]:
        args = parser.parse_args(["--config", str(config)])
        return settings_module.exposed_secrets(resolve(args, parser, {}))

    config.chmod(0o644)
    assert exposed() == [(str(config), "database_url")]
    config.chmod(0o600)
    assert exposed() == []
    config.chmod(0o644)
    config.write_text('database_url = "postgresql+psycopg://campfire@db/games"\n', "utf-8")
    assert exposed() == []  # no password: nothing to hide


def test_the_server_logs_the_warnings_about_its_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from campfire.server.cli import apply_settings, warn_about_settings

    config = tmp_path / "c.toml"
    config.write_text('redis_url = "redis://:s3cret@127.0.0.1:6379/0"\n', encoding="utf-8")
    config.chmod(0o640)
    monkeypatch.setenv("CAMPFIRE_WORKER", "2")
    args = build_parser().parse_args(["serve", "--config", str(config)])
    assert apply_settings(args) is False
    with caplog.at_level("WARNING", logger="campfire.server.cli"):
        warn_about_settings(args)
    text = caplog.text
    assert "CAMPFIRE_WORKER is set, but no setting is called so" in text
    assert f"settings file {config}: other users may read it, and redis_url holds a secret" in text
    assert "s3cret" not in text
