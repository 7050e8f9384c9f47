"""The Makefile's steps that install Debian packages (``make chromium``, ``make nginx``, ``make
pg-client``, part of ``make test``), with a fake apt-get.

When Chromium is missing, ``make test`` installs the Debian package; another package install
holding dpkg's lock must make apt-get wait for it (a bounded time, said beforehand), not fail at
once with "Could not get lock /var/lib/dpkg/lock-frontend"; and ``apt-get update``, which that
option does not make wait for the package lists' lock, is tried again (a bounded time). The
fake ``apt-get`` only records how it was called (and "installs" a fake ``chromium``), so nothing
is installed here.
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


#: an apt-get whose ``update`` finds the package lists' lock held by another update ``{busy}``
#: times (apt 2.6 does not wait for that lock, whatever DPkg::Lock::Timeout says)
BUSY_APT_GET = """#!/bin/sh
echo "$*" >> "{log}"
case " $* " in
  *" update "*)
    n=1
    while [ "$n" -le {busy} ]; do
      if [ ! -e "{state}/busy$n" ]; then
        : > "{state}/busy$n"
        echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 7 (apt-get)" >&2
        exit 100
      fi
      n=$((n + 1))
    done;;
  *" install "*) printf '#!/bin/sh\\n' > "{bin}/chromium"; "{chmod}" +x "{bin}/chromium";;
esac
"""


def _busy_make(
    tmp_path: Path, busy: int, wait: int
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """``make chromium`` with an apt-get whose update finds the lists' lock held ``busy`` times."""
    make, chmod, sleep = shutil.which("make"), shutil.which("chmod"), shutil.which("sleep")
    if make is None or chmod is None or sleep is None:
        pytest.skip("needs make, chmod and sleep")
    bin_dir, log, state = tmp_path / "bin", tmp_path / "apt-get.log", tmp_path / "state"
    bin_dir.mkdir()
    state.mkdir()
    fake = BUSY_APT_GET.format(log=log, bin=bin_dir, chmod=chmod, state=state, busy=busy)
    _script(bin_dir / "apt-get", fake)
    _script(bin_dir / "id", "#!/bin/sh\necho 0\n")  # as root: apt-get without sudo
    (bin_dir / "sleep").symlink_to(sleep)
    env = {
        **os.environ,
        "PATH": str(bin_dir),
        "CAMPFIRE_CHROMIUM": str(tmp_path / "none"),
        "APT_LOCK_RETRY": "0",  # no real waiting in a test: the tries are counted
    }
    ran = subprocess.run(
        [make, "-s", "chromium", f"APT_LOCK_WAIT={wait}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return ran, log.read_text(encoding="utf-8").splitlines()


def test_make_chromium_waits_while_another_update_holds_the_package_lists(
    tmp_path: Path,
) -> None:
    ran, calls = _busy_make(tmp_path, busy=2, wait=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    # two refused updates, the third goes through, then the install
    assert ["update" in c.split() for c in calls] == [True, True, True, False], calls
    assert "install" in calls[-1].split()
    assert "another package update holds apt's lock; waiting for it (up to 600 s)" in ran.stdout
    assert f"make: installed {tmp_path / 'bin' / 'chromium'}" in ran.stdout


def test_make_chromium_gives_up_on_the_package_lists_lock_after_its_wait(tmp_path: Path) -> None:
    ran, calls = _busy_make(tmp_path, busy=100, wait=3)
    assert ran.returncode != 0
    assert all("update" in c.split() for c in calls) and len(calls) == 4, calls  # 0, 1, 2, 3 s
    assert "Could not get lock /var/lib/apt/lists/lock" in ran.stderr
    assert "apt's lock was still held after 3 s" in ran.stderr
