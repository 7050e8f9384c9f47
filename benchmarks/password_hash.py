"""The cost of one password hash and one check with the accounts' Argon2id parameters.

``campfire.server.accounts.ARGON2_PARAMETERS`` (RFC 9106's second recommended set: 64 MiB,
3 passes, 4 lanes): what one sign-up (a hash), one sign-in (a check) and one password change
(a check and a hash) cost the server, in wall-clock milliseconds, the median of ``--runs``.

    .venv/bin/python benchmarks/password_hash.py --runs 20
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from campfire.server.accounts import ARGON2_PARAMETERS, make_hasher


def main() -> None:
    """Time ``--runs`` hashes and checks; print the medians and the fastest."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    hasher = make_hasher()
    digest = hasher.hash("a password of some length")  # (warm: the first allocation)
    hashes, checks = [], []
    for _ in range(args.runs):
        start = time.perf_counter()
        hasher.hash("a password of some length")
        hashes.append(time.perf_counter() - start)
        start = time.perf_counter()
        hasher.verify(digest, "a password of some length")
        checks.append(time.perf_counter() - start)
    p = ARGON2_PARAMETERS
    cpus = os.cpu_count()
    print(f"Argon2id m={p.memory_cost} KiB t={p.time_cost} p={p.parallelism}, {cpus} CPUs")
    for name, times in (("hash", hashes), ("check", checks)):
        median, best = statistics.median(times) * 1000, min(times) * 1000
        print(f"{name}: median {median:.0f} ms, fastest {best:.0f} ms ({args.runs} runs)")


if __name__ == "__main__":
    main()
