#!/bin/sh
# The mypyc-versus-Cython trial of issue 32 (benchmarks/README.md, "Compiled engines (issue 32)").
# Builds three scratch copies of src/ under DIR (default ../campfire-compiled-trial, outside the
# repository; the repository's .py files stay the one source and are never built in place):
#   DIR/pure    the sources with the mypyc trial's changes (mypyc-trial.patch), not compiled
#   DIR/mypyc   the same sources, the trial's modules compiled with mypyc
#   DIR/cython  the repository's sources unchanged, the same modules cythonized (pure-Python
#               mode, annotation_typing off)
# PYTHON must have mypy (mypyc comes with it); CYTHON_PYTHON must have Cython.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${1:-$ROOT/../campfire-compiled-trial}
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
CYTHON_PYTHON=${CYTHON_PYTHON:-$PYTHON}
MODULES="campfire/core/state.py campfire/core/actions.py campfire/core/events.py
campfire/games/tracker/state.py campfire/games/tracker/actions.py campfire/games/tracker/cards.py
campfire/games/tracker/bots.py campfire/agents/ismcts.py"
rm -rf "$DIR" && mkdir -p "$DIR"
for v in pure mypyc cython; do
  mkdir "$DIR/$v" && cp -r "$ROOT/src" "$DIR/$v/src"
  find "$DIR/$v/src" -name __pycache__ -prune -exec rm -rf {} +
done
for v in pure mypyc; do (cd "$DIR/$v" && patch -s -p1 < "$HERE/mypyc-trial.patch"); done
(cd "$DIR/mypyc/src" && time nice -n 10 "$PYTHON" -m mypyc $MODULES > "$DIR/mypyc.log" 2>&1)
(cd "$DIR/cython/src" && time nice -n 10 "$CYTHON_PYTHON" "$HERE/cythonize.py" $MODULES \
  > "$DIR/cython.log" 2>&1)
echo "built: $DIR/pure/src $DIR/mypyc/src $DIR/cython/src"
