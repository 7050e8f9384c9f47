"""The Ray backend: the same games as the process backend, played as Ray tasks.

Each Ray task plays a chunk of games with :func:`~campfire.arena.runner.play_chunk`, so a game's
result depends only on its task (its seeds), not on where it runs: a run on Ray gives the same
results as a run in local processes. The cluster's nodes need the same Campfire installed.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Sequence
from typing import Any

from campfire.core import CampfireError, ErrorText

from .runner import GameResult, GameTask, chunked, play_chunk

__all__ = ["check_reachable", "run_on_ray"]


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise CampfireError(
            "the ray backend needs the 'ray' package: pip install ray (or use --backend process)"
        ) from None
    return ray


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Raise :class:`CampfireError` unless ``HOST:PORT`` (or ``ray://HOST:PORT``) answers.

    Ray itself retries an unreachable address for minutes; this fails fast instead. Other
    addresses (``auto``, ``local``) are left to Ray.

    >>> check_reachable("127.0.0.1:1", timeout=1.0)
    Traceback (most recent call last):
    ...
    campfire.core.errors.CampfireError: cannot reach the Ray cluster at 127.0.0.1:1: ...
    """
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise CampfireError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc} "
            "(start one with 'ray start --head', or leave out --address for a local Ray)"
        ) from None


def run_on_ray(
    tasks: Sequence[GameTask],
    jobs: int,
    address: str | None,
    collect: Callable[[list[GameResult]], None],
) -> int:
    """Play ``tasks`` on Ray and pass each finished chunk to ``collect``; return the CPUs used.

    With ``address`` it connects to that cluster (``auto``: the one this machine belongs to);
    otherwise it starts a local Ray with ``jobs`` CPUs and stops it at the end. A Ray already
    initialised in this process is used as it is.
    """
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        settings: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.ERROR,
        }
        try:
            if address is not None:
                check_reachable(address)
                ray.init(address=address, **settings)
            else:
                ray.init(num_cpus=jobs, **settings)
        except CampfireError:
            raise
        except Exception as exc:
            where = (
                ErrorText("the Ray cluster at {address}", address=address)
                if address
                else ErrorText("a local Ray instance")
            )
            raise CampfireError(
                ErrorText("cannot start or reach {where}: {reason}", where=where, reason=str(exc))
            ) from None
        started = True
    pending: list[Any] = []
    try:
        cpus = int(ray.cluster_resources().get("CPU", jobs)) if address else jobs
        cpus = max(1, cpus)
        remote = ray.remote(num_cpus=1)(play_chunk)
        pending = [remote.remote(chunk) for chunk in chunked(tasks, cpus)]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                collect(ray.get(ref))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
    return cpus
