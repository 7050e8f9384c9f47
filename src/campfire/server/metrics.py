"""``GET /metrics``: what the server is doing, in the Prometheus text format.

The server counts as it goes, cheaply, with ``prometheus-client`` (``docs/deploy.md``,
"Metrics", lists every metric, the queries that matter and the alerts worth setting):

- ``campfire_tables{state}`` (gauge): the tables this server holds in memory, by state
  (``open``, ``running``, ``finished``), sampled every :data:`SAMPLE_SECONDS` and at each scrape;
- ``campfire_connections{kind}`` (gauge): open table sockets, ``player`` or ``spectator``;
- ``campfire_actions_total`` (counter): actions accepted and committed (``rate()`` of it is the
  actions per second);
- ``campfire_action_seconds`` (histogram): from the moment an action is accepted (the table's
  lock held, the engine about to apply it) until its frames are queued for every connection of
  the table: the engine's step, the frames built, the commit awaited;
- ``campfire_db_commit_seconds`` and ``campfire_db_commit_actions`` (histograms): each group
  commit of the action log (:class:`~.writer.LogWriter`), its time and how many actions it held;
- ``campfire_bot_queue`` (gauge): bot decisions waiting for a thread of the bot pool;
  ``campfire_bot_think_seconds`` (histogram): a bot's decision, in its thread;
- ``campfire_lease_takeovers_total`` (counter): with several processes, running tables this
  process took over from another (:meth:`.tables.TableManager.load` rebuilt one whose lease
  had run out, or whose owner went away);
- ``campfire_errors_total{code,via}`` (counter): errors sent, by their code, ``via`` ``http``
  (the lobby's JSON errors, ``rate_limited`` included) or ``socket`` (``error`` frames).

No label ever names a table, a seat, a person or an address: the labels' values are a few fixed
words, so the number of series stays the same however many tables are played.

**Who may read it.** Only the addresses of :attr:`MetricsConfig.allow` (``campfire serve
--metrics-allow``; by default the loopback addresses 127.0.0.1 and ::1); any other is answered
404, as if there were no such page (nothing tells a stranger that it exists). The address is
:func:`.security.client_address`'s. ``--no-metrics`` turns the page and the counting off.

**Several processes** (``campfire serve --workers N``): each process counts in files of a
directory they share (``prometheus-client``'s multiprocess mode: ``PROMETHEUS_MULTIPROC_DIR``,
which ``campfire serve`` makes, and clears, unless the environment names one), and whichever
process answers ``GET /metrics`` answers for all of them: counters and histograms summed, the
gauges summed over the processes alive (the files of a process that died are removed). Servers
on other machines (``--redis-url``) are scraped each on its own, as usual.

``prometheus_client`` is imported when a :class:`Metrics` is made, not at this module's import:
its multiprocess mode is chosen by the environment at its import.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import ipaddress
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

    from .tables import TableManager

__all__ = [
    "DEFAULT_ALLOW",
    "METRICS_VARIABLE",
    "MULTIPROC_VARIABLE",
    "SAMPLE_SECONDS",
    "Metrics",
    "MetricsConfig",
    "Networks",
    "NoMetrics",
    "clear_multiprocess_dir",
    "make_metrics",
    "parse_networks",
]

#: Who may read ``/metrics`` by default: this machine only.
DEFAULT_ALLOW = "127.0.0.1,::1"
#: The environment variable that passes :class:`MetricsConfig` to ``--workers`` processes.
METRICS_VARIABLE = "CAMPFIRE_SERVE_METRICS"
#: ``prometheus-client``'s directory of the processes' counts (multiprocess mode).
MULTIPROC_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
#: Seconds between two samples of the tables by state.
SAMPLE_SECONDS = 2.0

#: Buckets (seconds) of the action → broadcast latency.
ACTION_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5)
#: Buckets (seconds) of a group commit.
COMMIT_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
#: Buckets (actions) of a group commit's size.
GROUP_BUCKETS = (1, 2, 5, 10, 20, 50, 100, 200, 500)
#: Buckets (seconds) of a bot's decision.
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

#: The states a table is counted in.
STATES = ("open", "running", "finished")

Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def parse_networks(text: str) -> Networks:
    """Addresses and networks written ``ADDR[,CIDR...]`` (``none`` or empty: none).

    >>> [str(n) for n in parse_networks("127.0.0.1, 10.0.0.0/8,::1")]
    ['127.0.0.1/32', '10.0.0.0/8', '::1/128']
    >>> parse_networks("none")
    ()
    """
    out = []
    for entry in (e.strip() for e in text.split(",")):
        if not entry or entry.lower() == "none":
            continue
        try:
            out.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"{entry[:60]!r} is no IP address or network (ADDR or ADDR/BITS, "
                "comma-separated; none: no address)"
            ) from None
    return tuple(out)


def address_in(host: str | None, networks: Networks) -> bool:
    """Whether ``host`` (an address as text; ``None``: unknown) is in one of ``networks``.

    An IPv4 address written as IPv6 (``::ffff:127.0.0.1``) counts as the IPv4 one.

    >>> address_in("::ffff:127.0.0.1", parse_networks("127.0.0.1"))
    True
    >>> address_in("testclient", parse_networks("127.0.0.1")), address_in(None, ())
    (False, False)
    """
    if host is None or not networks:
        return False
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address.version == n.version and address in n for n in networks)


@dataclass(frozen=True)
class MetricsConfig:
    """Whether the server counts and answers ``/metrics``, and to whom.

    >>> MetricsConfig().allowed("127.0.0.1"), MetricsConfig().allowed("192.0.2.1")
    (True, False)
    >>> MetricsConfig(allow="192.0.2.0/24").allowed("192.0.2.1")
    True
    """

    enabled: bool = True
    #: ``ADDR[,CIDR...]``: who may read ``/metrics`` (``none``: nobody)
    allow: str = DEFAULT_ALLOW

    def __post_init__(self) -> None:
        object.__setattr__(self, "_networks", parse_networks(self.allow))

    @property
    def networks(self) -> Networks:
        """The networks of :attr:`allow`."""
        networks: Networks = getattr(self, "_networks")  # noqa: B009 (set in __post_init__)
        return networks

    def allowed(self, host: str | None) -> bool:
        """Whether a client at ``host`` may read ``/metrics``."""
        return self.enabled and address_in(host, self.networks)

    def to_json(self) -> str:
        """The configuration as JSON (what :data:`METRICS_VARIABLE` holds)."""
        return json.dumps({"enabled": self.enabled, "allow": self.allow})

    @classmethod
    def from_environment(cls) -> MetricsConfig:
        """The configuration in :data:`METRICS_VARIABLE`, else the defaults."""
        text = os.environ.get(METRICS_VARIABLE)
        if not text:
            return cls()
        values = json.loads(text)
        if not isinstance(values, dict):
            raise ValueError(f"{METRICS_VARIABLE} holds a JSON object (got {text[:40]!r})")
        return cls(**values)


class NoMetrics:
    """Counts nothing (``--no-metrics``): the same calls as :class:`Metrics`, each a no-op."""

    enabled = False

    def action(self, seconds: float, count: int = 1) -> None:
        """An action accepted, committed and broadcast ``seconds`` after its acceptance."""

    def commit(self, seconds: float, actions: int) -> None:
        """A group commit of ``actions`` actions that took ``seconds``."""

    def bot_waiting(self, change: int) -> None:
        """A bot decision queued (+1) or taken up by a thread (-1)."""

    def bot_thought(self, seconds: float) -> None:
        """A bot decided in ``seconds``."""

    def takeovers(self, count: int = 1) -> None:
        """``count`` tables taken over from another process."""

    def error(self, code: str, via: str) -> None:
        """An error sent: ``via`` ``http`` or ``socket``."""

    def connection(self, kind: str, change: int) -> None:
        """A table socket of ``kind`` (``player``, ``spectator``) opened (+1) or closed (-1)."""

    def sample(self, manager: TableManager | None) -> None:
        """Count the tables of ``manager`` by state."""

    def render(self) -> tuple[bytes, str]:
        """The text of ``/metrics`` and its content type."""
        return b"", "text/plain"

    def close(self) -> None:
        """Mark this process stopped (multiprocess mode: its gauges leave the sum)."""


class Metrics(NoMetrics):
    """The server's metrics (see the module's description), in a registry of their own.

    ``multiprocess``: the processes of ``--workers N`` share the counts in the directory of
    ``PROMETHEUS_MULTIPROC_DIR`` (which must be set before ``prometheus_client`` is imported).
    """

    enabled = True

    def __init__(self, multiprocess: bool | None = None) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        if multiprocess is None:
            multiprocess = bool(os.environ.get(MULTIPROC_VARIABLE))
        self.multiprocess = multiprocess
        #: where the metrics are registered (multiprocess mode: read from the files instead)
        self.registry = CollectorRegistry(auto_describe=True)
        registry = None if multiprocess else self.registry
        if not multiprocess:
            from prometheus_client import PLATFORM_COLLECTOR, PROCESS_COLLECTOR

            for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR):
                with contextlib.suppress(ValueError):
                    self.registry.register(collector)
        self._tables = Gauge(
            "campfire_tables",
            "Tables this server holds in memory, by state.",
            ["state"],
            registry=registry,
            multiprocess_mode="livesum",
        )
        self._table_states = {s: self._tables.labels(s) for s in STATES}
        connections = Gauge(
            "campfire_connections",
            "Open table sockets, by kind (player or spectator).",
            ["kind"],
            registry=registry,
            multiprocess_mode="livesum",
        )
        self._connections = {k: connections.labels(k) for k in ("player", "spectator")}
        self._actions = Counter(
            "campfire_actions", "Actions accepted and committed.", registry=registry
        )
        self._action_seconds = Histogram(
            "campfire_action_seconds",
            "From an action's acceptance until its frames are queued for every connection.",
            buckets=ACTION_BUCKETS,
            registry=registry,
        )
        self._commit_seconds = Histogram(
            "campfire_db_commit_seconds",
            "Time of one group commit of the action log.",
            buckets=COMMIT_BUCKETS,
            registry=registry,
        )
        self._commit_actions = Histogram(
            "campfire_db_commit_actions",
            "Actions in one group commit of the action log.",
            buckets=GROUP_BUCKETS,
            registry=registry,
        )
        self._bot_queue = Gauge(
            "campfire_bot_queue",
            "Bot decisions waiting for a thread of the bot pool.",
            registry=registry,
            multiprocess_mode="livesum",
        )
        self._bot_think = Histogram(
            "campfire_bot_think_seconds",
            "Time of one bot decision (in its thread).",
            buckets=THINK_BUCKETS,
            registry=registry,
        )
        self._takeovers = Counter(
            "campfire_lease_takeovers",
            "Tables this process took over from another server process.",
            registry=registry,
        )
        self._errors = Counter(
            "campfire_errors",
            "Errors sent, by code and by way (http: the lobby's JSON errors; socket: frames).",
            ["code", "via"],
            registry=registry,
        )
        self._error_children: dict[tuple[str, str], Any] = {}
        self.last_sample = 0.0

    def action(self, seconds: float, count: int = 1) -> None:
        """An action accepted, committed and broadcast ``seconds`` after its acceptance."""
        self._actions.inc(count)
        self._action_seconds.observe(seconds)

    def commit(self, seconds: float, actions: int) -> None:
        """A group commit of ``actions`` actions that took ``seconds``."""
        self._commit_seconds.observe(seconds)
        self._commit_actions.observe(actions)

    def bot_waiting(self, change: int) -> None:
        """A bot decision queued (+1) or taken up by a thread (-1)."""
        self._bot_queue.inc(change)

    def bot_thought(self, seconds: float) -> None:
        """A bot decided in ``seconds``."""
        self._bot_think.observe(seconds)

    def takeovers(self, count: int = 1) -> None:
        """``count`` tables taken over from another process."""
        if count:
            self._takeovers.inc(count)

    def error(self, code: str, via: str) -> None:
        """An error sent: ``via`` ``http`` or ``socket``.

        ``code`` is one of the server's own codes (never text from a client), so the series
        stay few.
        """
        key = (code, via)
        child = self._error_children.get(key)
        if child is None:
            child = self._error_children[key] = self._errors.labels(code, via)
        child.inc()

    def connection(self, kind: str, change: int) -> None:
        """A table socket of ``kind`` (``player``, ``spectator``) opened (+1) or closed (-1)."""
        self._connections[kind].inc(change)

    def sample(self, manager: TableManager | None) -> None:
        """Count the tables of ``manager`` by state."""
        counts = dict.fromkeys(STATES, 0)
        if manager is not None:
            for live in list(manager.tables.values()):
                if live.status in counts:
                    counts[live.status] += 1
        for state, gauge in self._table_states.items():
            gauge.set(counts[state])
        self.last_sample = time.monotonic()

    def render(self) -> tuple[bytes, str]:
        """The text of ``/metrics`` (every process's, in multiprocess mode) and its type."""
        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

        if not self.multiprocess:
            return generate_latest(self.registry), CONTENT_TYPE_LATEST
        from prometheus_client.multiprocess import MultiProcessCollector

        path = os.environ.get(MULTIPROC_VARIABLE, "")
        _forget_dead_processes(path)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=path)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST

    def close(self) -> None:
        """Mark this process stopped (multiprocess mode: its gauges leave the sum)."""
        if self.multiprocess:
            from prometheus_client.multiprocess import mark_process_dead

            with contextlib.suppress(OSError):
                mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


_LIVE_GAUGE = re.compile(r"gauge_live[a-z]+_(\d+)\.db$")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process
        return True
    return True


def _forget_dead_processes(path: str) -> None:
    """Remove the live gauges' files of processes that died (killed: they could not say so).

    Their counters and histograms stay: what they counted still happened.
    """
    from prometheus_client.multiprocess import mark_process_dead

    dead: set[int] = set()
    for name in glob.glob(os.path.join(glob.escape(path), "gauge_live*_*.db")):
        found = _LIVE_GAUGE.search(name)
        if found is not None and not _alive(int(found.group(1))):
            dead.add(int(found.group(1)))
    for pid in dead:
        with contextlib.suppress(OSError):
            mark_process_dead(pid, path)  # type: ignore[no-untyped-call]


def clear_multiprocess_dir(path: str) -> None:
    """Remove the counts a previous run left in ``path`` (``prometheus-client``'s files only)."""
    for kind in ("counter", "gauge", "histogram", "summary"):
        for name in glob.glob(os.path.join(glob.escape(path), f"{kind}_*.db")):
            with contextlib.suppress(OSError):
                os.remove(name)


def make_metrics(config: MetricsConfig) -> NoMetrics:
    """The metrics ``config`` asks for: :class:`Metrics`, or :class:`NoMetrics` when off."""
    return Metrics() if config.enabled else NoMetrics()


async def sample_forever(metrics: NoMetrics, manager: Callable[[], TableManager | None]) -> None:
    """Sample the tables by state every :data:`SAMPLE_SECONDS` (a task of the app's lifespan)."""
    while True:
        metrics.sample(manager())
        await asyncio.sleep(SAMPLE_SECONDS)


def metrics_route(
    config: MetricsConfig, address: Callable[[Any], str | None]
) -> Callable[[Request], Any]:
    """The ``GET /metrics`` handler: the metrics to an allowed address, 404 to any other."""
    from starlette.responses import PlainTextResponse, Response

    async def metrics_page(request: Request) -> Response:
        metrics: NoMetrics = request.app.state.metrics
        if not metrics.enabled or not config.allowed(address(request.scope)):
            return PlainTextResponse("Not Found", status_code=404)
        metrics.sample(getattr(request.app.state, "manager", None))
        body, content_type = await asyncio.to_thread(metrics.render)
        return Response(body, media_type=content_type, headers={"Cache-Control": "no-store"})

    return metrics_page
