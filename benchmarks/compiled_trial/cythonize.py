"""Cythonize the given .py files in place (pure-Python mode; the trial of issue 32).

``annotation_typing`` is off: with it on, Cython turns ``int`` and ``str`` annotations into C
type checks that are stricter than the engines' own (a ``str`` subclass such as ``ErrorText``
is refused, a bad seat fails with Cython's ``TypeError`` before the engine's ``SeatError``).
"""

import sys

from Cython.Build import cythonize  # type: ignore[import-not-found, unused-ignore]
from setuptools import setup  # type: ignore[import-untyped, unused-ignore]

setup(
    name="campfire-cython-trial",
    ext_modules=cythonize(
        sys.argv[1:], compiler_directives={"language_level": 3, "annotation_typing": False}
    ),
    script_args=["build_ext", "--inplace"],
)
