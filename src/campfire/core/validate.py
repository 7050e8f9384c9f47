r"""Checks of input at Campfire's public boundary: seeds, integers typed as text, JSON documents.

Everything a user can hand to Campfire — a seed, a number on the command line, a record or
position file — passes through one of these functions, which either return a plain, bounded value
or raise one of the project's errors (:class:`~campfire.core.errors.CampfireError` subclasses)
saying what was wrong and what is allowed. The limits are documented in ``docs/records.md``.

>>> check_seed(7)
7
>>> check_seed(-1)
Traceback (most recent call last):
...
campfire.core.errors.OptionError: a seed is a whole number 0 … 2**63 - 1 (got -1)
>>> parse_int("12", "--players", minimum=1)
12
>>> parse_int("١٢", "--players")
Traceback (most recent call last):
...
campfire.core.errors.OptionError: --players must be an integer written with the digits 0-9 ...
>>> loads_json(b'{"a": [1, 2.5, "x"]}', "the record")
{'a': [1, 2.5, 'x']}
>>> loads_json(b'\xff', "the record")
Traceback (most recent call last):
...
campfire.core.errors.RecordError: the record is not UTF-8 text (byte 0xff at offset 0)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from .errors import CampfireError, ErrorText, OptionError, RecordError

__all__ = [
    "MAX_INT_DIGITS",
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_JSON_VALUES",
    "MAX_PLAYERS_ARG",
    "MAX_SEED",
    "MAX_TEXT_OPTION",
    "JsonReader",
    "check_int_digits",
    "check_seed",
    "int_arg",
    "loads_json",
    "parse_int",
    "read_bytes",
    "seed_arg",
    "short_repr",
]

#: Seeds are whole numbers ``0 <= seed < MAX_SEED`` (what ``secrets.randbits(63)`` draws).
MAX_SEED = 2**63
#: The largest JSON document (a record, a position) Campfire reads: 16 MiB.
MAX_JSON_BYTES = 16 * 2**20
#: The deepest nesting of arrays and objects in a JSON document Campfire reads.
MAX_JSON_DEPTH = 64
#: The most values a JSON document Campfire reads may hold, counted generously as the commas and
#: the opening brackets of its text (those inside strings too): the items of its arrays and
#: objects are at most one more than that. What a document takes in memory once read is bounded
#: by its size and this count (``docs/records.md``, "Memory"); a real game's record holds a few
#: values per action, and no game lasts 80,000 actions.
MAX_JSON_VALUES = 250_000
#: The most digits of an integer in a JSON document or a number typed as text.
MAX_INT_DIGITS = 40
#: The largest player count a command line may give (every game has at most 6 players).
MAX_PLAYERS_ARG = 99
#: The longest text value of an option (such as a list of tiles written as text).
MAX_TEXT_OPTION = 1000

ErrorType = Callable[[str], CampfireError]

_INT_TEXT = re.compile(r"[+-]?[0-9]+")


def check_seed(seed: object, *, error: ErrorType = OptionError, what: str = "a seed") -> int:
    """Return ``seed`` if it is a seed: an ``int`` (not a ``bool``), ``0 <= seed < 2**63``.

    A negative seed would draw the same game as its absolute value (Python's generator ignores
    the sign), so it is refused rather than silently aliased.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        shown = short_repr(seed)
        raise error(f"{what} is a whole number 0 … 2**63 - 1 (got {shown})")
    return int(seed)


def check_int_digits(value: object, what: str, *, error: ErrorType = OptionError) -> None:
    """Refuse an integer of more than :data:`MAX_INT_DIGITS` digits anywhere in ``value``.

    ``value`` is a JSON-like value given through the Python API (an explicit setup): its lists,
    tuples and mappings (keys and values) are searched, as the record reader refuses such an
    integer in a file. Python cannot even write an integer of 4,300 digits or more in a message.

    >>> check_int_digits({"start_player": 0, "deck": [1, 2]}, "the setup")
    >>> check_int_digits({"start_player": 10**5000}, "the setup")
    Traceback (most recent call last):
    ...
    campfire.core.errors.OptionError: the setup holds an integer of more than 40 digits; ...
    """
    stack = [value]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, int):
            if not -_INT_LIMIT < item < _INT_LIMIT:
                raise error(
                    ErrorText(
                        "{source} holds an integer of more than {most} digits; at most {most} "
                        "are allowed",
                        source=what,
                        most=MAX_INT_DIGITS,
                    )
                )
        elif isinstance(item, (list, tuple, Mapping)) and id(item) not in seen:
            seen.add(id(item))  # a container that holds itself is searched once
            if isinstance(item, Mapping):
                stack.extend(item.keys())
                stack.extend(item.values())
            else:
                stack.extend(item)


_INT_LIMIT = 10**MAX_INT_DIGITS


def parse_int(
    text: str,
    what: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    error: ErrorType = OptionError,
) -> int:
    """Read a whole number typed as text: ASCII digits with an optional sign, in range.

    Surrounding spaces are ignored; other digit characters (``²``, ``١``), underscores, and
    numbers longer than :data:`MAX_INT_DIGITS` digits are refused with ``error``.
    """
    stripped = text.strip() if isinstance(text, str) else None
    if (
        stripped is None
        or len(stripped.lstrip("+-")) > MAX_INT_DIGITS
        or _INT_TEXT.fullmatch(stripped) is None
    ):
        raise error(
            f"{what} must be an integer written with the digits 0-9 (got {short_repr(text)})"
        )
    value = int(stripped)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        low = "" if minimum is None else f"{minimum}"
        high = "" if maximum is None else f"{maximum}"
        allowed = (
            f"{low}–{high}" if low and high else (f"at least {low}" if low else f"at most {high}")
        )
        raise error(f"{what} must be {allowed} (got {value})")
    return value


# ----- command-line arguments ---------------------------------------------------------------


def int_arg(what: str, minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number ``minimum``–``maximum`` written with digits 0-9."""

    def parse(text: str) -> int:
        try:
            return parse_int(text, what, minimum=minimum, maximum=maximum)
        except CampfireError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = what  # argparse names the type in some messages
    return parse


def seed_arg(text: str) -> int:
    """An argparse ``type`` for a seed: a whole number 0 … 2**63 - 1."""
    try:
        return check_seed(parse_int(text, "a seed"))
    except CampfireError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def short_repr(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages about input of any size."""
    try:
        text = repr(value)
    except ValueError:  # an int too long for repr
        return f"a number of more than {MAX_INT_DIGITS} digits"
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ----- JSON ---------------------------------------------------------------------------------


def read_bytes(
    source: str | Path | IO[bytes],
    what: str,
    *,
    limit: int = MAX_JSON_BYTES,
    error: ErrorType = RecordError,
) -> bytes:
    """Read at most ``limit`` bytes from a file path or a binary stream.

    A file larger than ``limit`` is refused before it is read; a stream is read up to one byte
    past the limit, and refused if it is longer.
    """
    too_big = _too_big(what, limit)
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            with path.open("rb") as f:
                if os.fstat(f.fileno()).st_size > limit:
                    raise error(too_big)
                data = f.read(limit + 1)
        except OSError as exc:
            raise error(_cannot_read(str(path), exc)) from None
    else:
        try:
            data = source.read(limit + 1)
        except OSError as exc:
            raise error(_cannot_read(what, exc)) from None
    if len(data) > limit:
        raise error(too_big)
    return data


def _too_big(source: str, limit: int) -> ErrorText:
    """``source`` is refused for being larger than ``limit`` bytes."""
    return ErrorText(
        "{source} is larger than {limit} bytes, the most Campfire reads",
        source=source,
        limit=format(limit, ","),
    )


def _cannot_read(source: str, exc: OSError) -> ErrorText:
    """Why ``source`` could not be read (the system's reason, as it gives it)."""
    return ErrorText("cannot read {source}: {reason}", source=source, reason=exc.strerror or exc)


def decode_text(data: bytes | str, what: str, *, error: ErrorType = RecordError) -> str:
    """Decode UTF-8 bytes (a leading byte-order mark is allowed) into text."""
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        byte = f"0x{data[exc.start]:02x}"
        raise error(
            ErrorText(
                "{source} is not UTF-8 text (byte {byte} at offset {offset})",
                source=what,
                byte=byte,
                offset=exc.start,
            )
        ) from None


_WS = re.compile(r"[ \t\n\r]*")


class JsonReader:
    """A bounded, strict JSON reader over one text, which can read a document piece by piece.

    Strict means: integers of at most :data:`MAX_INT_DIGITS` digits, finite numbers only (no
    ``NaN``/``Infinity``), no duplicate keys in an object, no lone surrogates in strings,
    nesting at most :data:`MAX_JSON_DEPTH` deep, and at most :data:`MAX_JSON_VALUES` values in
    the whole text (counted before anything is read, so that no shape of input makes Python
    build more objects than that: an empty object costs some 30 times its two characters).
    Every problem raises ``error`` naming ``what``.
    """

    def __init__(self, text: str, what: str, *, error: ErrorType = RecordError) -> None:
        check_json_count(text, what, error=error)
        self.text = text
        self.pos = 0
        self.what = what
        self.error = error
        self._decoder = json.JSONDecoder(
            parse_int=self._int,
            parse_float=self._float,
            parse_constant=self._constant,
            object_pairs_hook=self._object,
        )

    # hooks of the decoder
    def _int(self, text: str) -> int:
        if len(text.lstrip("-")) > MAX_INT_DIGITS:
            raise self.error(
                ErrorText(
                    "{source} holds an integer of {digits} digits; at most {most} are allowed",
                    source=self.what,
                    digits=len(text.lstrip("-")),
                    most=MAX_INT_DIGITS,
                )
            )
        return int(text)

    def _float(self, text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise self.error(
                ErrorText(
                    "{source} holds the number {number}, which is out of range",
                    source=self.what,
                    number=text[:40],
                )
            )
        return value

    def _constant(self, text: str) -> Any:
        raise self.error(
            ErrorText(
                "{source} holds {text}, which is not a JSON number", source=self.what, text=text
            )
        )

    def _object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    raise self.error(
                        ErrorText(
                            "{source} has the key {key} twice in one object",
                            source=self.what,
                            key=repr(key),
                        )
                    )
                seen.add(key)
        return result

    # reading
    def fail(self, message: str) -> CampfireError:
        """An error about the text at the current position (line and column).

        ``message`` says what is wrong there: an :class:`ErrorText`, or the JSON decoder's own
        (English) words.
        """
        line = self.text.count("\n", 0, self.pos) + 1
        column = self.pos - (self.text.rfind("\n", 0, self.pos) + 1) + 1
        return self.error(
            ErrorText(
                "{source} is not valid JSON: {problem} (line {line}, column {column})",
                source=self.what,
                problem=message,
                line=line,
                column=column,
            )
        )

    def skip_space(self) -> str:
        """Skip white space; return the next character ('' at the end)."""
        self.pos = _WS.match(self.text, self.pos).end()  # type: ignore[union-attr]
        return self.text[self.pos : self.pos + 1]

    def expect(self, char: str) -> None:
        """Skip white space and the character ``char`` (or fail)."""
        if self.skip_space() != char:
            found = self.text[self.pos : self.pos + 1]
            raise self.fail(
                ErrorText("expected {char}, found {found}", char=repr(char), found=repr(found))
                if found
                else ErrorText("expected {char}", char=repr(char))
            )
        self.pos += 1

    def value(self, depth: int = 0) -> Any:
        """Read one JSON value at the current position (``depth``: how deep it is nested)."""
        self.skip_space()
        start = self.pos
        try:
            value, self.pos = self._decoder.raw_decode(self.text, self.pos)
        except json.JSONDecodeError as exc:
            self.pos = exc.pos
            raise self.fail(exc.msg) from None
        except RecursionError:
            self.pos = start
            raise self.error(_too_deep(self.what)) from None
        check_json_value(value, self.what, depth=depth, error=self.error)
        return value

    def at_end(self) -> None:
        """Fail unless only white space is left."""
        if self.skip_space():
            raise self.fail(ErrorText("extra data after the document"))


def check_json_count(text: str, what: str, *, error: ErrorType = RecordError) -> None:
    """Refuse a JSON text that may hold more than :data:`MAX_JSON_VALUES` values.

    The count is that of the commas and opening brackets of the whole text, strings included
    (three passes of ``str.count``, a few milliseconds for 16 MiB): an upper bound of the
    number of values, less one.

    >>> check_json_count("[" + "0," * 300_000 + "0]", "the record")
    Traceback (most recent call last):
    ...
    campfire.core.errors.RecordError: the record holds more than 250,000 JSON values ...
    """
    count = text.count(",")
    if count <= MAX_JSON_VALUES:
        count += text.count("[")
        if count <= MAX_JSON_VALUES:
            count += text.count("{")
    if count > MAX_JSON_VALUES:
        raise error(
            ErrorText(
                "{source} holds more than {limit} JSON values (items of arrays and objects), "
                "the most Campfire reads; a real game's record holds a few per action",
                source=what,
                limit=format(MAX_JSON_VALUES, ","),
            )
        )


def check_json_value(
    value: Any, what: str, *, depth: int = 0, error: ErrorType = RecordError
) -> None:
    """Check the nesting depth and the strings of a decoded JSON value (without recursion)."""
    stack: list[tuple[Any, int]] = [(value, depth)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, str):
            _check_string(item, what, error)
        elif isinstance(item, (list, dict)):
            if level >= MAX_JSON_DEPTH:
                raise error(_too_deep(what))
            if isinstance(item, dict):
                for key, sub in item.items():
                    _check_string(key, what, error)
                    if isinstance(sub, (str, list, dict)):
                        stack.append((sub, level + 1))
            else:
                stack.extend((sub, level + 1) for sub in item if isinstance(sub, (str, list, dict)))


def _too_deep(source: str) -> ErrorText:
    return ErrorText(
        "{source} is nested more than {depth} levels deep", source=source, depth=MAX_JSON_DEPTH
    )


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_string(text: str, what: str, error: ErrorType) -> None:
    if not text.isascii() and _SURROGATE.search(text) is not None:  # (no copy of the text)
        raise error(
            ErrorText(
                "{source} holds a string with a lone surrogate ({range})",
                source=what,
                range="\\ud800–\\udfff",
            )
        )


def loads_json(data: bytes | str, what: str, *, error: ErrorType = RecordError) -> Any:
    """Decode a whole JSON document strictly and within the limits (see :class:`JsonReader`).

    ``data`` longer than :data:`MAX_JSON_BYTES` is refused.
    """
    if len(data) > MAX_JSON_BYTES:
        raise error(_too_big(what, MAX_JSON_BYTES))
    reader = JsonReader(decode_text(data, what, error=error), what, error=error)
    value = reader.value()
    reader.at_end()
    return value
