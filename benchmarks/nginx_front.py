"""nginx in front of a running ``campfire serve``, on loopback, with the shipped configuration.

``deploy/nginx/campfire.conf`` (what ``docs/deploy.md`` shows) is used as it is, but for what
must differ on a test machine: the ports (free loopback ports instead of 80 and 443, no IPv6
listeners), the certificate (a self-signed one made here with the ``openssl`` command, for
``games.example.org``, ``localhost`` and 127.0.0.1), the upstream's port and the access log's
path. nginx runs as a
child process in the foreground (``daemon off``) with a temporary prefix holding its
configuration, logs, pid and temporary files: nothing is written under /etc or /var, and no
privileged port is used.

Used by ``tests/server/test_nginx.py`` and ``benchmarks/server_load.py --proxy nginx``. When
the ``nginx`` (or ``openssl``) command is missing, :func:`ensure_command` installs the Debian
package with apt-get, saying so (root or password-less sudo; apt-get waits up to 600 s for
another install's lock, as ``make test`` does for Chromium).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: The configuration shipped with the project (docs/deploy.md shows it).
CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "nginx" / "campfire.conf"
#: The public host name of the shipped configuration.
HOST_NAME = "games.example.org"
#: How long apt-get waits for another package install's lock (``make test``'s APT_LOCK_WAIT).
APT_LOCK_WAIT = 600
#: The one installer of Debian packages, ``make test``'s
INSTALLER = Path(__file__).resolve().parents[1] / "scripts" / "debian-package.sh"


def _say(text: str) -> None:
    """Tell the person running the tests (past pytest's capture)."""
    stream = sys.__stderr__ or sys.stderr
    print(text, file=stream, flush=True)


def _find(command: str) -> str | None:
    return shutil.which(command) or next(
        (p for p in (f"/usr/sbin/{command}", f"/sbin/{command}") if os.access(p, os.X_OK)), None
    )


def ensure_command(
    command: str, package: str, why: str = "the tests behind a reverse proxy"
) -> str:
    """The path of ``command``; Debian's ``package`` is installed first when it is missing.

    The install is ``scripts/debian-package.sh``'s, as ``make test``'s (root or ``sudo -n``;
    it waits up to :data:`APT_LOCK_WAIT` seconds for another package install or update, and
    says so). Raises :class:`RuntimeError` saying what to install when it cannot be installed
    here, or what apt-get said when the install failed.
    """
    found = _find(command)
    if found:
        return found
    done = subprocess.run(
        ["/bin/sh", str(INSTALLER), package, command, command, why],
        env=dict(os.environ, APT_LOCK_WAIT=str(APT_LOCK_WAIT), INSTALLER_SAYS="campfire"),
        capture_output=True,
        text=True,
        check=False,
    )
    for line in done.stdout.splitlines():
        _say(line)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip()[-2000:] or f"installing {package} failed")
    found = _find(command)
    if not found:
        raise RuntimeError(f"the package {package} is installed but {command} is not found")
    return found


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate and its key for :data:`HOST_NAME`, localhost and 127.0.0.1."""
    openssl = ensure_command("openssl", "openssl")
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            *(openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"),
            *("-nodes", "-days", "2", "-keyout", str(key), "-out", str(cert)),
            *("-subj", f"/CN={HOST_NAME}"),
            *("-addext", f"subjectAltName=DNS:{HOST_NAME},DNS:localhost,IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def render(
    text: str,
    *,
    https_port: int,
    http_port: int,
    upstream_port: int,
    cert: Path,
    key: Path,
    access_log: Path,
) -> str:
    """The shipped configuration with a test machine's ports, certificate, upstream and log.

    Each replaced piece must be found where the shipped file has it (:class:`ValueError`
    otherwise): the configuration tested is the one documented.
    """
    live = f"/etc/letsencrypt/live/{HOST_NAME}"
    swaps = [
        ("    listen [::]:80;\n", ""),
        ("    listen [::]:443 ssl http2;\n", ""),
        ("    listen 80;", f"    listen 127.0.0.1:{http_port};"),
        ("    listen 443 ssl http2;", f"    listen 127.0.0.1:{https_port} ssl http2;"),
        (f"{live}/fullchain.pem;", f"{cert};"),
        (f"{live}/privkey.pem;", f"{key};"),
        ("    server 127.0.0.1:8000;", f"    server 127.0.0.1:{upstream_port};"),
    ]
    log = "/var/log/nginx/campfire.access.log campfire;"
    if text.count(log) != 2:
        raise ValueError(f"{CONFIG.name} no longer holds {log!r} twice")
    text = text.replace(log, f"{access_log} campfire;")
    for old, new in swaps:
        if text.count(old) != 1:
            raise ValueError(f"{CONFIG.name} no longer holds {old.strip()!r} once")
        text = text.replace(old, new)
    return text


def free_port() -> int:
    """A TCP port of 127.0.0.1 that was free a moment ago."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Front:
    """A running nginx: where it listens and the certificate it shows."""

    https_port: int
    http_port: int
    cert: Path
    prefix: Path
    process: subprocess.Popen[bytes]

    @property
    def base(self) -> str:
        """The lobby's address through nginx (HTTPS)."""
        return f"https://127.0.0.1:{self.https_port}"

    @property
    def ws(self) -> str:
        """The table sockets' address through nginx (WSS)."""
        return f"wss://127.0.0.1:{self.https_port}"

    def ssl_context(self) -> ssl.SSLContext:
        """A client context that verifies the server against the self-signed certificate."""
        return ssl.create_default_context(cafile=str(self.cert))

    def error_log(self) -> str:
        """What nginx logged (its errors and notices)."""
        path = self.prefix / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def access_log(self) -> str:
        """The requests nginx served."""
        path = self.prefix / "access.log"
        return path.read_text(errors="replace") if path.exists() else ""


def _main_config(prefix: Path, site: Path) -> str:
    """nginx's main file around the shipped site: everything under ``prefix``."""
    temp = prefix / "temp"
    return "\n".join(
        [
            "daemon off;",
            "worker_processes 1;",
            f"pid {prefix / 'nginx.pid'};",
            f"error_log {prefix / 'error.log'} notice;",
            "events { worker_connections 4096; }",
            "http {",
            "    default_type application/octet-stream;",
            f"    access_log {prefix / 'access.log'};",
            *(
                f"    {kind}_temp_path {temp / kind};"
                for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
            ),
            f"    include {site};",
            "}",
            "",
        ]
    )


@contextlib.contextmanager
def nginx_front(upstream_port: int, tries: int = 3) -> Iterator[Front]:
    """nginx with the shipped configuration in front of ``127.0.0.1:upstream_port``, ready.

    The ports are drawn free; one taken meanwhile by another program is drawn again (``tries``
    times). nginx is stopped (SIGQUIT, then SIGKILL) and its prefix removed on leaving.
    """
    nginx = ensure_command("nginx", "nginx")
    prefix = Path(tempfile.mkdtemp(prefix="campfire-nginx-"))
    prefix.chmod(0o755)  # nginx's workers (nobody when started as root) read and write in it
    try:
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (prefix / "temp" / kind).mkdir(parents=True)
            (prefix / "temp" / kind).chmod(0o777)
        (prefix / "temp").chmod(0o755)
        cert, key = self_signed(prefix)
        for attempt in range(tries):
            https_port, http_port = free_port(), free_port()
            site = prefix / "campfire.conf"
            site.write_text(
                render(
                    CONFIG.read_text(),
                    https_port=https_port,
                    http_port=http_port,
                    upstream_port=upstream_port,
                    cert=cert,
                    key=key,
                    access_log=prefix / "access.log",
                )
            )
            main = prefix / "nginx.conf"
            main.write_text(_main_config(prefix, site))
            with (prefix / "stderr.log").open("ab") as out:
                process = subprocess.Popen(
                    [nginx, "-p", str(prefix), "-c", str(main), "-e", str(prefix / "error.log")],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            front = Front(https_port, http_port, cert, prefix, process)
            try:
                if _wait_ready(front):
                    break
            except BaseException:
                _stop(process)
                raise
            _stop(process)
            if attempt == tries - 1:
                raise RuntimeError(
                    "nginx did not start:\n"
                    + (prefix / "stderr.log").read_text(errors="replace")[-3000:]
                    + front.error_log()[-3000:]
                )
        try:
            yield front
        finally:
            _stop(front.process)
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def _wait_ready(front: Front) -> bool:
    """Whether nginx answers ``/healthz`` (through to the server) over HTTPS; ``False``: it
    exited (a port was taken)."""
    context = front.ssl_context()
    for _ in range(600):  # readiness only: no duration is asserted
        if front.process.poll() is not None:
            return False
        with (
            contextlib.suppress(OSError, urllib.error.URLError),
            urllib.request.urlopen(f"{front.base}/healthz", timeout=10, context=context) as r,
        ):
            if r.status == 200:
                return True
        time.sleep(0.05)
    raise RuntimeError(f"nginx did not answer /healthz:\n{front.error_log()[-3000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(3)  # SIGQUIT: a graceful stop
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
