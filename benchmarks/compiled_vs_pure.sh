#!/bin/sh
# The compiled build against pure Python (issue 32, docs/compiled.md), interleaved: after
# `make compiled`, each round runs every game once compiled and once with
# CAMPFIRE_PURE_PYTHON=1, one after the other, both at `nice -n 10` (the machine may be shared):
# random playouts in actions per CPU second (benchmarks/playouts_cpu.py, campfire bench's loop
# on the same seeded games) and the hard level's search iterations per CPU second
# (benchmarks/search_speed.py). ROUNDS (default 2), GAMES (default all four), PLAYOUT_GAMES (the
# seeded games of a playout run, default 60) and POSITIONS (the searched decisions, default 3).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
export PYTHONPATH="$ROOT/src${PYTHONPATH:+:$PYTHONPATH}"
for i in $(seq "${ROUNDS:-2}"); do
  for game in ${GAMES:-apache dudab manitou tracker}; do
    for pure in 0 1; do
      build=compiled && [ "$pure" = 1 ] && build=pure
      cpu=$(CAMPFIRE_PURE_PYTHON=$pure nice -n 10 "$PYTHON" "$HERE/playouts_cpu.py" "$game" \
        --games "${PLAYOUT_GAMES:-60}" --repeat 1 | sed 's/.*: \([0-9,]*\) actions.*/\1/')
      search=$(CAMPFIRE_PURE_PYTHON=$pure nice -n 10 "$PYTHON" "$HERE/search_speed.py" "$game" \
        --levels hard --positions "${POSITIONS:-3}" | tail -1 | cut -d'|' -f7 | tr -d ' ')
      echo "round $i | $game | $build | playouts/CPU s $cpu | hard iterations/CPU s $search"
    done
  done
done
