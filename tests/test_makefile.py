"""The Makefile's steps that install Debian packages (``make chromium``, ``make nginx``, ``make
pg-client``, part of ``make test``), with a fake apt-get.

When Chromium is missing, ``make test`` installs the Debian package; another package install
holding dpkg's lock must make apt-get wait for it (a bounded time, said beforehand), not fail at
once with "Could not get lock /var/lib/dpkg/lock-frontend". The fake ``apt-get`` only records
how it was called (and "installs" a fake ``chromium``), so nothing is installed here.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="make and apt-get: POSIX only")

FAKE_APT_GET = """#!/bin/sh
echo "$*" >> "{log}"
case " $* " in
  *" install "*) printf '#!/bin/sh\\n' > "{bin}/{command}"; "{chmod}" +x "{bin}/{command}";;
esac
"""


def _script(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def test_make_chromium_waits_for_another_package_install(tmp_path: Path) -> None:
    make, chmod = shutil.which("make"), shutil.which("chmod")
    if make is None or chmod is None:
        pytest.skip("needs make and chmod")
    bin_dir, log = tmp_path / "bin", tmp_path / "apt-get.log"
    bin_dir.mkdir()
    _script(
        bin_dir / "apt-get",
        FAKE_APT_GET.format(log=log, bin=bin_dir, chmod=chmod, command="chromium"),
    )
    _script(bin_dir / "id", "#!/bin/sh\necho 0\n")  # as root: apt-get without sudo
    env = {**os.environ, "PATH": str(bin_dir), "CAMPFIRE_CHROMIUM": str(tmp_path / "none")}
    ran = subprocess.run(
        [make, "-s", "chromium"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert len(calls) == 2, calls
    assert "update" in calls[0].split() and "install" in calls[1].split(), calls
    for call in calls:  # every apt-get waits for dpkg's lock, a bounded time
        assert "-o DPkg::Lock::Timeout=600" in call, call
    assert "apt-get waits up to 600 s" in ran.stdout
    assert f"make: installed {bin_dir / 'chromium'}" in ran.stdout


def test_make_nginx_installs_it_when_missing_and_says_so(tmp_path: Path) -> None:
    make, chmod = shutil.which("make"), shutil.which("chmod")
    if make is None or chmod is None:
        pytest.skip("needs make and chmod")
    bin_dir, log = tmp_path / "bin", tmp_path / "apt-get.log"
    bin_dir.mkdir()
    _script(
        bin_dir / "apt-get", FAKE_APT_GET.format(log=log, bin=bin_dir, chmod=chmod, command="nginx")
    )
    _script(bin_dir / "id", "#!/bin/sh\necho 0\n")  # as root: apt-get without sudo
    env = {**os.environ, "PATH": str(bin_dir)}
    ran = subprocess.run(
        [make, "-s", "nginx", f"NGINX={tmp_path / 'none'}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert len(calls) == 2, calls
    assert "update" in calls[0].split() and "install" in calls[1].split(), calls
    assert calls[1].split()[-1] == "nginx"
    for call in calls:
        assert "-o DPkg::Lock::Timeout=600" in call, call
    assert "nginx is missing; installing the nginx package" in ran.stdout
    assert "apt-get waits up to 600 s" in ran.stdout
    assert f"make: installed {bin_dir / 'nginx'}" in ran.stdout
    # present: nothing to do
    ran = subprocess.run([make, "-s", "nginx"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert ran.returncode == 0 and ran.stdout == "", ran.stdout + ran.stderr


def test_make_pg_client_installs_postgresql_client_when_pg_dump_is_missing(
    tmp_path: Path,
) -> None:
    make, chmod = shutil.which("make"), shutil.which("chmod")
    if make is None or chmod is None:
        pytest.skip("needs make and chmod")
    bin_dir, log = tmp_path / "bin", tmp_path / "apt-get.log"
    bin_dir.mkdir()
    fake = """#!/bin/sh
echo "$*" >> "{log}"
case " $* " in
  *" install "*) for t in pg_dump pg_restore; do printf '#!/bin/sh\\n' > "{bin}/$t"; \
"{chmod}" +x "{bin}/$t"; done;;
esac
"""
    _script(bin_dir / "apt-get", fake.format(log=log, bin=bin_dir, chmod=chmod))
    _script(bin_dir / "id", "#!/bin/sh\necho 0\n")  # as root: apt-get without sudo
    env = {**os.environ, "PATH": str(bin_dir)}  # no pg_dump on this PATH
    ran = subprocess.run(
        [make, "-s", "pg-client"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert "update" in calls[0].split() and "postgresql-client" in calls[1].split(), calls
    assert all("-o DPkg::Lock::Timeout=600" in call for call in calls), calls
    assert "installing the postgresql-client package" in ran.stdout
    assert f"make: installed {bin_dir / 'pg_dump'}" in ran.stdout
