"""Typed, validated game options.

A game declares its options as a frozen dataclass deriving from :class:`Options`; each field is made
with :func:`option`, which records the allowed values and a help text. The defaults are the rules
as written in the game's spec.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo(Options):
...     size: int = option(2, choices=(2, 3, 4), help="cards per peek", label="Peek size")
...     fast: bool = option(False, help="a variant")
>>> Demo.from_mapping({"size": "3"})
Demo(size=3, fast=False)
>>> Demo.from_mapping({"size": 9})
Traceback (most recent call last):
...
campfire.core.errors.OptionError: option 'size' must be one of 2, 3, 4 (got 9)
>>> len(list(Demo.combinations()))
6

What a person reads of an option is its ``label`` and, for each choice, its entry in ``labels``
(plain words, translated through the game's catalogs like the help text); an option without them
is shown in a readable form of its name and values:

>>> [(i.title(), i.value_label(i.default)) for i in Demo.infos()]
[('Peek size', '2'), ('Fast', 'false')]
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self, TypeVar

from .errors import ErrorText, OptionError
from .validate import MAX_INT_DIGITS, MAX_TEXT_OPTION, parse_int, short_repr

__all__ = ["OptionInfo", "Options", "option", "readable"]

T = TypeVar("T")

_META_KEY = "campfire_option"


@dataclass(frozen=True)
class OptionInfo:
    """Description of one option: its name, type, default, allowed values and help text."""

    name: str
    type: type
    default: Any
    choices: tuple[Any, ...] | None
    help: str
    sweep: tuple[Any, ...]
    minimum: float | None = None
    maximum: float | None = None
    #: the option's name in plain words ("" : none declared, :meth:`title` reads the name)
    label: str = ""
    #: plain words for some (or all) of the choices: ``(value, words)`` pairs
    labels: tuple[tuple[Any, str], ...] = ()
    #: the values are seats, counted from 0 (shown as "Player 1", "Player 2", …), but for those
    #: that ``labels`` names (such as -1 for "at random")
    seat: bool = False

    def title(self) -> str:
        """The option's name as a person reads it: its label, else its name in words.

        >>> OptionInfo("use_jungle", bool, False, None, "", (False, True)).title()
        'Use jungle'
        """
        return self.label or readable(self.name).capitalize()

    def value_label(self, value: Any) -> str:
        """The words declared for ``value``, else a readable form of it (no seat numbering).

        >>> info = OptionInfo("order", str, "by_time", ("by_time", "fifo"), "", ("by_time",),
        ...                   labels=(("fifo", "first come, first served"),))
        >>> info.value_label("fifo"), info.value_label("by_time")
        ('first come, first served', 'by time')
        """
        for known, words in self.labels:
            if known == value and type(known) is type(value):
                return words
        return readable(_fmt(value))

    def describe_allowed(self) -> str:
        """Say in words which values are allowed."""
        if self.choices is not None:
            return "one of " + ", ".join(_fmt(c) for c in self.choices)
        if self.type is bool:
            return "true or false"
        kind = {int: "an integer", float: "a number"}.get(self.type, f"a {self.type.__name__}")
        if self.minimum is not None and self.maximum is not None:
            return f"{kind} from {_fmt(self.minimum)} to {_fmt(self.maximum)}"
        if self.minimum is not None:
            return f"{kind} of at least {_fmt(self.minimum)}"
        if self.maximum is not None:
            return f"{kind} of at most {_fmt(self.maximum)}"
        return f"a value of type {self.type.__name__}"

    def allows(self, value: Any) -> bool:
        """Whether ``value`` (already of the option's type) is allowed."""
        if self.choices is not None:
            return bool(value in self.choices)
        if self.minimum is not None and value < self.minimum:
            return False
        return not (self.maximum is not None and value > self.maximum)


def option(
    default: T,
    *,
    choices: Sequence[T] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    help: str = "",
    sweep: Sequence[T] | None = None,
    label: str = "",
    labels: Mapping[T, str] | None = None,
    seat: bool = False,
) -> T:
    """Declare an option field with its default, allowed values and help text.

    A numeric option without ``choices`` can be bounded by ``minimum`` and ``maximum``
    (inclusive): a count that a user controls should be. ``sweep`` lists the values that the
    conformance suite tries; it defaults to ``choices`` (or ``(False, True)`` for a boolean, or
    the default alone otherwise).

    What the lobby and the table pages show a person: ``label``, the option's name in plain
    words, and ``labels``, plain words for the choices (value → words); both are English and
    translated through the game's catalogs (``python -m campfire.i18n extract`` collects them).
    ``seat`` says the values are seats counted from 0: a page shows them as "Player 1", "Player
    2", … up to the table's player count, and the values that ``labels`` names by those words.
    Without them a page shows the name and the values in a readable form (``_`` as spaces).
    """
    meta = {
        "choices": tuple(choices) if choices is not None else None,
        "minimum": minimum,
        "maximum": maximum,
        "help": help,
        "sweep": tuple(sweep) if sweep is not None else None,
        "label": label,
        "labels": tuple(labels.items()) if labels is not None else (),
        "seat": seat,
    }
    return dataclasses.field(default=default, metadata={_META_KEY: meta})


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def readable(text: str) -> str:
    """A code word in a readable form: underscores as spaces.

    >>> readable("per_card")
    'per card'
    """
    return " ".join(text.replace("_", " ").split()) or text


def _coerce(info: OptionInfo, value: Any) -> Any:
    """Convert ``value`` (possibly a string from the command line) to the option's type.

    Text is read strictly: integers with the ASCII digits 0-9 (at most 40 of them), finite
    numbers, and text options of at most 1000 characters.
    """
    typ = info.type
    shown = short_repr(value)
    if typ is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
            return True
        if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"option {info.name!r} must be true or false (got {shown})")
    if typ is int:
        if isinstance(value, bool):
            raise OptionError(f"option {info.name!r} must be an integer (got {shown})")
        if isinstance(value, int):
            if not -_INT_LIMIT < value < _INT_LIMIT:  # as in a record, or typed as text
                raise OptionError(
                    f"option {info.name!r} must be an integer of at most {MAX_INT_DIGITS} "
                    f"digits (got {shown})"
                )
            return value
        if isinstance(value, str):
            return parse_int(value, f"option {info.name!r}")
        raise OptionError(f"option {info.name!r} must be an integer (got {shown})")
    if typ is float:
        number: float | None = None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value) if abs(value) < 1e308 else None
        elif isinstance(value, str) and _FLOAT_TEXT.fullmatch(value.strip()):
            number = float(value)
        if number is None or not math.isfinite(number):
            raise OptionError(f"option {info.name!r} must be a number (a finite one; got {shown})")
        return number
    if typ is str:
        if not isinstance(value, str):
            raise OptionError(f"option {info.name!r} must be a string (got {shown})")
        if len(value) > MAX_TEXT_OPTION:
            raise OptionError(
                f"option {info.name!r} is at most {MAX_TEXT_OPTION} characters long "
                f"(got {len(value)})"
            )
        return value
    return value


_INT_LIMIT = 10**MAX_INT_DIGITS
_FLOAT_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")

_TYPES: dict[str, type] = {"int": int, "bool": bool, "str": str, "float": float}


@dataclass(frozen=True)
class Options:
    """Base class of every game's options dataclass.

    Subclasses are frozen dataclasses whose fields are declared with :func:`option`. Instances are
    validated on creation, so an ``Options`` object is always legal.
    """

    def __post_init__(self) -> None:
        for info in self.infos():
            value = getattr(self, info.name)
            coerced = _coerce(info, value)
            if not info.allows(coerced):
                raise OptionError(
                    f"option {info.name!r} must be {info.describe_allowed()} "
                    f"(got {short_repr(coerced) if isinstance(coerced, str) else _fmt(coerced)})"
                )
            if coerced is not value:
                object.__setattr__(self, info.name, coerced)
        self.validate()

    def validate(self) -> None:
        """Check relations between options; override to add checks (raise :class:`OptionError`)."""

    @classmethod
    def infos(cls) -> tuple[OptionInfo, ...]:
        """Describe every option of this class, in declaration order."""
        cached: tuple[OptionInfo, ...] | None = cls.__dict__.get("_campfire_infos")
        if cached is not None:
            return cached
        result = []
        for f in dataclasses.fields(cls):
            meta = f.metadata.get(_META_KEY, {})
            typ = f.type if isinstance(f.type, type) else _TYPES.get(str(f.type), object)
            choices = meta.get("choices")
            sweep = meta.get("sweep")
            if sweep is None:
                if choices is not None:
                    sweep = choices
                elif typ is bool:
                    sweep = (False, True)
                else:
                    sweep = (f.default,)
            result.append(
                OptionInfo(
                    f.name,
                    typ,
                    f.default,
                    choices,
                    meta.get("help", ""),
                    tuple(sweep),
                    meta.get("minimum"),
                    meta.get("maximum"),
                    meta.get("label", ""),
                    meta.get("labels", ()),
                    meta.get("seat", False),
                )
            )
        infos = tuple(result)
        setattr(cls, "_campfire_infos", infos)  # noqa: B010 - cache on the class itself
        return infos

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None = None) -> Self:
        """Build options from a mapping of names to values (strings are converted).

        Unknown names raise :class:`OptionError` listing the known ones.
        """
        if values is not None and not isinstance(values, Mapping):
            raise OptionError(
                ErrorText(
                    "options are a mapping of option names to values (got {kind})",
                    kind=type(values).__name__,
                )
            )
        values = dict(values or {})
        known = {info.name: info for info in cls.infos()}
        for key in values:
            if not isinstance(key, str):
                raise OptionError(
                    ErrorText("option names are strings (got {got})", got=short_repr(key))
                )
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise OptionError(
                ErrorText(
                    "unknown option {name}; this game's options are: {known}",
                    name=short_repr(unknown[0]),
                    known=", ".join(known) or ErrorText("none"),
                )
            )
        return cls(**{k: _coerce(known[k], v) for k, v in values.items()})

    def to_dict(self) -> dict[str, Any]:
        """Return the options as a JSON-ready dict."""
        return {info.name: getattr(self, info.name) for info in self.infos()}

    def non_default(self) -> dict[str, Any]:
        """Return only the options that differ from their defaults."""
        return {
            i.name: getattr(self, i.name)
            for i in self.infos()
            if getattr(self, i.name) != i.default
        }

    @classmethod
    def combinations(cls) -> Iterator[Self]:
        """Yield every valid combination of the options' sweep values (for the conformance suite).

        Combinations that :meth:`validate` rejects are skipped.
        """
        infos = cls.infos()
        for values in itertools.product(*(i.sweep for i in infos)):
            try:
                yield cls(**{i.name: v for i, v in zip(infos, values, strict=True)})
            except OptionError:
                continue


def parse_option_assignments(items: Sequence[str]) -> dict[str, str]:
    """Parse ``key=value`` strings (as given on the command line) into a dict.

    >>> parse_option_assignments(["peek_count=3", "max_relocations=5"])
    {'peek_count': '3', 'max_relocations': '5'}
    """
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(
                ErrorText("an option is written key=value (got {got})", got=repr(item))
            )
        result[key.strip()] = value.strip()
    return result
