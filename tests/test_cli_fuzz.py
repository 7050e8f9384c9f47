"""Fuzz tests of the command line's input boundary (issue 11 item 1).

Random and mutated record files go through ``campfire replay``, random option strings through
the option parsing of ``sim`` and ``play`` for every game, and random numbers through the
numeric arguments. Whatever the input, the command ends with exit status 0 or 2 and, on 2, one
line on standard error; any other exception escapes ``main`` and fails the test.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire import all_games
from campfire.cli import main
from campfire.core import CampfireError, parse_option_assignments

EXAMPLES = sorted((Path(__file__).parent.parent / "examples" / "records").glob("*.json"))
RECORDS = [json.loads(p.read_text(encoding="utf-8")) for p in EXAMPLES]
GAMES = [g.name for g in all_games()]

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def _replay(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    code = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code in (0, 2), (code, err)
    if code == 2:
        assert err.startswith("campfire: error: ") and err.count("\n") == 1, err
        assert "Traceback" not in err and out == ""


@FUZZ
@given(data=st.binary(max_size=300))
def test_replay_of_random_bytes_exits_0_or_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes
) -> None:
    path = tmp_path / "fuzz.json"
    path.write_bytes(data)
    _replay(capsys, path)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document (outside the long action list's items)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, sub in value.items():
            found += _paths(sub, (*prefix, key))
    elif isinstance(value, list):
        for i, sub in enumerate(value[:3]):
            found += _paths(sub, (*prefix, i))
    return found


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


@FUZZ
@given(
    which=st.integers(min_value=0, max_value=len(RECORDS) - 1),
    choice=st.integers(min_value=0),
    value=json_values,
    delete=st.booleans(),
)
def test_replay_of_mutated_records_exits_0_or_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    which: int,
    choice: int,
    value: Any,
    delete: bool,
) -> None:
    doc = copy.deepcopy(RECORDS[which])
    paths = _paths(doc)
    path = paths[choice % len(paths)]
    if delete and path:
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        del parent[path[-1]]
    else:
        doc = _set(doc, path, value)
    file = tmp_path / "mutated.json"
    file.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    _replay(capsys, file)


@FUZZ
@given(
    which=st.integers(min_value=0, max_value=len(RECORDS) - 1),
    cut=st.integers(min_value=0),
    noise=st.binary(max_size=20),
)
def test_replay_of_cut_or_corrupted_record_text_exits_0_or_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, which: int, cut: int, noise: bytes
) -> None:
    text = EXAMPLES[which].read_bytes()
    at = cut % (len(text) + 1)
    path = tmp_path / "cut.json"
    path.write_bytes(text[:at] + noise + text[at + len(noise) :])
    _replay(capsys, path)


option_text = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=30
) | st.sampled_from(["3", "true", "-1", "totem:3", "tipi1:²", "٣", "1e999", "nan", "1_0"])


@st.composite
def option_assignments(draw: st.DrawFn, game: str) -> list[str]:
    names = [i.name for i in next(g for g in all_games() if g.name == game).options_type.infos()]
    items = []
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        key = draw(st.sampled_from(names) | st.text(max_size=8))
        items.append(f"{key}={draw(option_text)}" if draw(st.booleans()) else key)
    return items


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_option_strings_give_options_or_an_option_error(game: str, data: st.DataObject) -> None:
    from campfire import get_game

    items = data.draw(option_assignments(game))
    spec = get_game(game)
    try:
        options = spec.options(parse_option_assignments(items))
    except CampfireError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert spec.options(options.to_dict()) == options  # what was accepted reads back


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_play_config_options_give_a_config_or_a_campfire_error(
    game: str, data: st.DataObject
) -> None:
    from campfire.tui.launch import play_config

    items = data.draw(option_assignments(game))
    try:
        config = play_config(game, options=items)
    except CampfireError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert config.game == game


@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_sim_options_exit_0_or_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, data: st.DataObject
) -> None:
    items = data.draw(option_assignments(game))
    argv = ["sim", game, "--players", "2", "--agents", "random", "--games", "1", "--jobs", "1"]
    for item in items:
        argv += ["--option", item]
    code = main([*argv, "--seed", "1", "--json", str(tmp_path / "out.json")])
    _, err = capsys.readouterr()
    assert code in (0, 2), (code, err)
    if code == 2:
        assert err.count("\n") == 1 and "Traceback" not in err, err


number_text = (
    st.text(max_size=12)
    | st.integers().map(str)
    | st.sampled_from(["٢", "²", "1_0", "9" * 5000, "-1", "nan", "inf", "1e3", " 2 ", "2**63"])
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(flag=st.sampled_from(["--players", "--games", "--seed", "--jobs"]), value=number_text)
def test_sim_numbers_exit_0_or_2(capsys: pytest.CaptureFixture[str], flag: str, value: str) -> None:
    # --players 0 or --games 0 (whichever is not fuzzed) makes every run fail before any game
    args = {"--players": "0", "--games": "0", "--seed": "1", "--jobs": "1"}
    args[flag] = value
    argv = ["sim", "tracker", "--agents", "random"]
    for key, val in args.items():
        argv.append(f"{key}={val}")
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=number_text)
def test_bench_and_play_numbers_exit_0_or_2(capsys: pytest.CaptureFixture[str], value: str) -> None:
    for argv in (
        ["bench", "tracker", f"--seconds={value}", "--runs=0"],
        ["bench", "tracker", "--seconds=1", f"--runs={value}", "--players=0"],
        ["play", "tracker", f"--seed={value}", "--players=0"],
        ["play", "tracker", "--seed=1", f"--players={value}", "--save=/"],
    ):
        code = main(argv)
        _, err = capsys.readouterr()
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (argv, err)
