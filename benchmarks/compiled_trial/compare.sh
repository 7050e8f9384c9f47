#!/bin/sh
# Interleaved figures of the builds named (src folders from build.sh), ROUNDS rounds (default 3):
# CPU-time random playouts (benchmarks/playouts_cpu.py), campfire bench (wall clock) and the
# ISMCTS iterations per CPU second of the hard level (benchmarks/search_speed.py).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
GAME=${GAME:-tracker}
for i in $(seq "${ROUNDS:-3}"); do
  for src in "$@"; do
    cpu=$(PYTHONPATH=$src "$PYTHON" "$ROOT/benchmarks/playouts_cpu.py" "$GAME" --games 100 --repeat 2)
    bench=$(PYTHONPATH=$src "$PYTHON" -m campfire bench "$GAME" --seconds 2 --runs 2 2>/dev/null | grep "^$GAME")
    search=$(PYTHONPATH=$src "$PYTHON" "$ROOT/benchmarks/search_speed.py" "$GAME" --levels hard \
      --positions 4 | tail -1 | cut -d'|' -f7)
    echo "$i $src | $cpu | bench: $bench | hard search iterations/s:$search"
  done
done
