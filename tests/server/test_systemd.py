"""The systemd unit ``deploy/systemd/campfire.service`` and its example settings and secrets files.

This machine runs no systemd, so the service is never started here: ``systemd-analyze verify``
checks the unit (installing Debian's ``systemd`` package when ``systemd-analyze`` is missing,
and saying so), and its ``ExecStart`` line is run through the real parser with the example
files (``--print-config``: the settings it would serve with).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.benchmark_scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "systemd" / "campfire.service"
SETTINGS = ROOT / "deploy" / "campfire.toml"
SECRETS = ROOT / "deploy" / "campfire.env"

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="systemd: Linux only")


def _directives(path: Path) -> dict[str, list[str]]:
    """``Key=value`` lines of a unit (every value of a key, in order), by ``Section.Key``."""
    found: dict[str, list[str]] = {}
    section = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return found


def _one(directives: dict[str, list[str]], key: str) -> str:
    values = directives[f"Service.{key}"]
    assert len(values) == 1, (key, values)
    return values[0]


def _systemd_analyze() -> str:
    """``systemd-analyze``, installed with the Debian package ``systemd`` when it is missing (by
    ``make test``'s installer, ``scripts/debian-package.sh``, which says so)."""
    try:
        return str(
            load_script("nginx_front").ensure_command(
                "systemd-analyze", "systemd", "the systemd unit's test"
            )
        )
    except RuntimeError as cannot:
        pytest.fail(f"systemd-analyze is missing and could not be installed: {cannot}")


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    # the unit's program, here: the campfire command of the environment the tests run in
    campfire = Path(sys.executable).with_name("campfire")
    assert campfire.exists(), f"no campfire command next to {sys.executable}"
    unit = tmp_path / "campfire.service"
    text = UNIT.read_text(encoding="utf-8")
    assert "/opt/campfire/bin/campfire" in text
    unit.write_text(text.replace("/opt/campfire/bin/campfire", str(campfire)), encoding="utf-8")
    ran = subprocess.run(
        [_systemd_analyze(), "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    # verify reports a line it cannot read as a warning and still exits 0: none is allowed
    assert ran.returncode == 0 and not ran.stdout.strip() and not ran.stderr.strip(), (
        ran.stdout + ran.stderr
    )
    broken = tmp_path / "broken.service"
    broken.write_text(unit.read_text().replace("=strict", "=very"), encoding="utf-8")
    ran = subprocess.run(
        [_systemd_analyze(), "verify", "--man=no", str(broken)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "ProtectSystem" in ran.stderr or "protect system" in ran.stderr  # it does look


def test_the_unit_is_hardened_and_stops_and_restarts_as_documented() -> None:
    unit = _directives(UNIT)
    expected = {
        "DynamicUser": "yes",
        "User": "campfire",
        "StateDirectory": "campfire",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "NoNewPrivileges": "yes",
        "CapabilityBoundingSet": "",
        "AmbientCapabilities": "",
        "Restart": "on-failure",
        "KillSignal": "SIGTERM",
        "KillMode": "mixed",
        "RestartPreventExitStatus": "2",  # a usage error: a bad setting
    }
    for key, value in expected.items():
        assert _one(unit, key) == value, key
    assert 1 <= int(_one(unit, "RestartSec")) <= 10
    assert int(_one(unit, "TimeoutStopSec")) >= 10
    assert int(_one(unit, "LimitNOFILE")) >= 4096
    assert "CAMPFIRE_DATA_DIR=/var/lib/campfire" in unit["Service.Environment"]
    assert _one(unit, "EnvironmentFile") == "-/etc/campfire/campfire.env"
    assert unit["Install.WantedBy"] == ["multi-user.target"]


def _environment_file(path: Path) -> dict[str, str]:
    """The variables of a systemd ``EnvironmentFile`` (``KEY=value`` lines, ``#`` comments)."""
    found = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", ";")):
            key, _, value = line.partition("=")
            found[key.strip()] = value.strip().strip("\"'")
    return found


def test_the_exec_start_line_parses_with_the_real_parser_and_the_example_files(
    tmp_path: Path,
) -> None:
    unit = _directives(UNIT)
    argv = shlex.split(_one(unit, "ExecStart"))
    assert argv[:2] == ["/opt/campfire/bin/campfire", "serve"]
    config = argv.index("--config")
    assert argv[config + 1] == "/etc/campfire/campfire.toml"
    argv[config + 1] = str(SETTINGS)  # the example, where the unit reads the installed one
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAMPFIRE_")}
    for line in unit["Service.Environment"]:
        key, _, value = line.partition("=")
        env[key] = value
    env["CAMPFIRE_DATA_DIR"] = str(tmp_path / "state")  # not /var/lib here
    env["CAMPFIRE_LANG"] = "en"  # the sources as the test reads them
    env.update(_environment_file(SECRETS))
    env["CAMPFIRE_DATABASE_URL"] = "postgresql+psycopg://campfire:s3cret@127.0.0.1:5432/campfire"
    ran = subprocess.run(
        [sys.executable, "-m", "campfire.cli", *argv[1:], "--print-config"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert "s3cret" not in ran.stdout
    printed = tomllib.loads(ran.stdout)
    example = tomllib.loads(SETTINGS.read_text(encoding="utf-8"))
    assert example and all(printed[key] == value for key, value in example.items())
    assert printed["database_url"] == "postgresql+psycopg://campfire:***@127.0.0.1:5432/campfire"
    source = {
        line.partition(" = ")[0]: line.rpartition("  # ")[2] for line in ran.stdout.splitlines()
    }
    assert source["database_url"] == "CAMPFIRE_DATABASE_URL"
    assert source["port"] == f"settings file {SETTINGS}"


def test_systemd_rates_the_unit_well_hardened(tmp_path: Path) -> None:
    unit = tmp_path / "campfire.service"
    unit.write_text(UNIT.read_text(encoding="utf-8"), encoding="utf-8")
    ran = subprocess.run(
        [_systemd_analyze(), "security", "--offline=yes", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r"Overall exposure level for campfire\.service: (\d+\.\d+)", ran.stdout)
    assert found, ran.stdout[-2000:] + ran.stderr
    # 0 is sealed, 10 is wide open; docs/deploy.md gives the figure (1.7)
    assert float(found.group(1)) <= 2.0, ran.stdout
