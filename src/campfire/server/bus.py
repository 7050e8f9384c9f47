"""The message bus between server processes: one channel per process, and who is alive.

Every process listens on its own channel; a message names the process it is for
(:meth:`Bus.send`), and the sender learns how many processes received it (0: that process is
gone, or the bus could not be reached). A process that no longer listens on its channel is
gone (:meth:`Bus.dead_among`); a process also keeps a short-lived "alive" mark
(:meth:`Bus.mark_alive`, :meth:`Bus.is_alive`).

:class:`RedisBus` is the bus of ``campfire serve --workers N`` (Redis pub/sub: Redis drops a
subscription the moment the subscriber's connection closes, so a killed process is gone at
once). :class:`MemoryBus` joins processes of one event loop, for fast tests.

>>> import asyncio
>>> async def demo() -> list[object]:
...     network = MemoryNetwork()
...     a, b = MemoryBus(network, "a"), MemoryBus(network, "b")
...     got: list[str] = []
...     counts: list[int] = []
...     await a.connect(lambda text: None)
...     await b.connect(got.append)
...     a.send("b", "hello", counts.append)
...     a.send("c", "anyone?", counts.append)
...     await asyncio.sleep(0)
...     return [got, counts, await a.dead_among(["b", "c"])]
>>> asyncio.run(demo())
[['hello'], [1, 0], {'c'}]
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Protocol

from campfire.core import ErrorText, OptionError

__all__ = [
    "DEFAULT_REDIS_URL",
    "Bus",
    "MemoryBus",
    "MemoryNetwork",
    "Published",
    "RedisBus",
    "check_redis",
]

log = logging.getLogger(__name__)

#: The Redis server the processes meet at, unless ``--redis-url`` says another.
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
#: How long closing the bus waits for each of its steps (seconds)
CLOSE_SECONDS = 5.0

#: Called once a message is published, with the number of processes that received it.
Published = Callable[[int], None]


class Bus(Protocol):
    """What a process's cluster needs of the bus (see the module)."""

    async def connect(self, receive: Callable[[str], None]) -> None:
        """Listen on this process's channel (``receive`` gets each message); mark it alive."""

    def send(self, worker: str, payload: str, published: Published | None = None) -> None:
        """Publish ``payload`` to ``worker``'s channel (in order)."""

    async def dead_among(self, workers: Collection[str]) -> set[str]:
        """Those of ``workers`` that do not listen on their channel (they are gone)."""

    async def mark_alive(self) -> None:
        """Renew this process's alive mark."""

    async def is_alive(self, worker: str) -> bool:
        """Whether ``worker``'s alive mark is there."""

    async def close(self) -> None:
        """Stop listening, remove the alive mark, disconnect."""


def check_redis(url: str) -> None:
    """Raise :class:`OptionError` saying why if Redis at ``url`` does not answer a ping."""
    try:
        import redis
    except ImportError:  # pragma: no cover - the server extra installs it
        raise OptionError(
            ErrorText(
                "several server processes need the redis package: "
                "pip install 'campfire-games[server]'"
            )
        ) from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as exc:
        raise OptionError(
            ErrorText(
                "cannot reach Redis at {url} ({exc}): several server processes pass actions "
                "and frames to each other through it; start Redis or give --redis-url",
                url=repr(url),
                exc=exc,
            )
        ) from None


class RedisBus:
    """The bus over Redis pub/sub: channel ``campfire:w:<process>``, ``campfire:alive:<process>``.

    Messages are published in order, in batches (one pipeline per batch); the alive mark lasts
    ``lease`` seconds (at least one).
    """

    def __init__(self, url: str, me: str, lease: float) -> None:
        self.url = url
        self.me = me
        self.lease = lease
        self._redis: Any = None
        self._pubsub: Any = None
        self._out: list[tuple[str, str, Published | None]] = []
        self._wake: asyncio.Event | None = None
        self._tasks: list[asyncio.Task[None]] = []

    async def connect(self, receive: Callable[[str], None]) -> None:
        """Connect, mark this process alive and listen (:class:`OptionError` if unreachable)."""
        import redis.asyncio as aioredis

        self._wake = asyncio.Event()
        self._redis = aioredis.Redis.from_url(self.url, decode_responses=True)
        try:
            await self._redis.ping()
            await self.mark_alive()
            pubsub = self._pubsub = self._redis.pubsub()
            await pubsub.subscribe(f"campfire:w:{self.me}")
        except Exception as exc:
            raise OptionError(
                ErrorText(
                    "cannot reach Redis at {url} ({exc}): several server processes pass "
                    "actions and frames to each other through it",
                    url=repr(self.url),
                    exc=exc,
                )
            ) from None
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(pubsub, receive)),
            loop.create_task(self._publish()),
        ]

    def send(self, worker: str, payload: str, published: Published | None = None) -> None:
        """Publish ``payload`` to ``worker``'s channel (in order, batched).

        ``published`` is called once it is published, with the number of processes that
        received it: 0 if nobody listens on that channel (the process is gone) or Redis could
        not be reached.
        """
        self._out.append((f"campfire:w:{worker}", payload, published))
        if self._wake is not None:
            self._wake.set()

    async def _publish(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._out:
                batch, self._out = self._out, []
                try:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, payload, _ in batch:
                            pipe.publish(channel, payload)
                        listeners = await pipe.execute()
                except Exception:
                    log.exception("could not publish %d messages to Redis", len(batch))
                    listeners = [0] * len(batch)
                for (_, _, published), count in zip(batch, listeners, strict=True):
                    if published is not None:
                        published(int(count))

    async def _listen(self, pubsub: Any, receive: Callable[[str], None]) -> None:
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            try:
                receive(str(message["data"]))
            except Exception:
                log.exception("a message from another process failed")

    async def dead_among(self, workers: Collection[str]) -> set[str]:
        """Those of ``workers`` that do not listen on their channel (they are gone)."""
        if not workers:
            return set()
        names = sorted(workers)
        counts = await self._redis.pubsub_numsub(*(f"campfire:w:{w}" for w in names))
        listening = {str(channel) for channel, count in counts if int(count) > 0}
        return {w for w in names if f"campfire:w:{w}" not in listening}

    async def mark_alive(self) -> None:
        """Renew this process's alive mark (it lasts the lease time)."""
        await self._redis.set(f"campfire:alive:{self.me}", "1", ex=max(1, math.ceil(self.lease)))

    async def is_alive(self, worker: str) -> bool:
        """Whether ``worker``'s alive mark is there."""
        return bool(await self._redis.exists(f"campfire:alive:{worker}"))

    async def close(self) -> None:
        """Stop listening and publishing, remove the alive mark, disconnect (bounded)."""
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=CLOSE_SECONDS)
        if self._redis is None:
            return
        steps: list[Callable[[], Awaitable[Any]]] = [
            lambda: self._redis.delete(f"campfire:alive:{self.me}"),
            lambda: self._pubsub.aclose(),
            lambda: self._redis.aclose(),
        ]
        for step in steps:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(step(), CLOSE_SECONDS)


class MemoryNetwork:
    """The channels and alive marks of :class:`MemoryBus` processes (one event loop)."""

    def __init__(self) -> None:
        self.channels: dict[str, Callable[[str], None]] = {}
        self.alive: set[str] = set()


class MemoryBus:
    """A :class:`Bus` in memory: messages are delivered in the event loop's next turn."""

    def __init__(self, network: MemoryNetwork, me: str) -> None:
        self.network = network
        self.me = me

    async def connect(self, receive: Callable[[str], None]) -> None:
        """Listen on this process's channel; mark it alive."""
        self.network.channels[self.me] = receive
        await self.mark_alive()

    def send(self, worker: str, payload: str, published: Published | None = None) -> None:
        """Deliver ``payload`` to ``worker`` soon; ``published`` gets 1, or 0 if it is gone."""
        receive = self.network.channels.get(worker)
        loop = asyncio.get_running_loop()
        if receive is not None:
            loop.call_soon(receive, payload)
        if published is not None:
            loop.call_soon(published, 0 if receive is None else 1)

    async def dead_among(self, workers: Collection[str]) -> set[str]:
        """Those of ``workers`` that do not listen."""
        return {w for w in workers if w not in self.network.channels}

    async def mark_alive(self) -> None:
        """Mark this process alive."""
        self.network.alive.add(self.me)

    async def is_alive(self, worker: str) -> bool:
        """Whether ``worker`` is marked alive."""
        return worker in self.network.alive

    async def close(self) -> None:
        """Stop listening; remove the alive mark."""
        self.network.channels.pop(self.me, None)
        self.network.alive.discard(self.me)
