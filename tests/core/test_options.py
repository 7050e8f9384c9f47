from __future__ import annotations

from dataclasses import dataclass

import pytest

from campfire.core import OptionError, Options, option, parse_option_assignments


@dataclass(frozen=True)
class Demo(Options):
    size: int = option(2, choices=(2, 3), help="size")
    fast: bool = option(False, help="fast")
    name: str = option("a", help="free text")
    ratio: float = option(0.5, help="a number")

    def validate(self) -> None:
        if self.fast and self.size == 3:
            raise OptionError("fast needs size 2")


def test_defaults_and_infos() -> None:
    assert Demo() == Demo(2, False, "a", 0.5)
    infos = {i.name: i for i in Demo.infos()}
    assert infos["size"].choices == (2, 3)
    assert infos["fast"].sweep == (False, True)
    assert infos["name"].sweep == ("a",)
    assert infos["size"].describe_allowed() == "one of 2, 3"
    assert infos["fast"].describe_allowed() == "true or false"


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"size": "3"}, Demo(size=3)),
        ({"fast": "yes"}, Demo(fast=True)),
        ({"fast": "off"}, Demo(fast=False)),
        ({"ratio": "2"}, Demo(ratio=2.0)),
        ({"name": "x"}, Demo(name="x")),
    ],
)
def test_from_mapping_converts_strings(values: dict[str, str], expected: Demo) -> None:
    assert Demo.from_mapping(values) == expected


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"size": 4}, "option 'size' must be one of 2, 3 (got 4)"),
        ({"size": "big"}, "must be an integer"),
        ({"size": True}, "must be an integer"),
        ({"fast": "maybe"}, "must be true or false"),
        ({"ratio": "x"}, "must be a number"),
        ({"name": 3}, "must be a string"),
        ({"colour": 1}, "unknown option 'colour'; this game's options are: size, fast, name"),
        ({"fast": True, "size": 3}, "fast needs size 2"),
    ],
)
def test_bad_options_raise_clear_errors(values: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Demo.from_mapping(values)


def test_combinations_skip_invalid_ones() -> None:
    combos = list(Demo.combinations())
    assert len(combos) == 3
    assert Demo(size=3, fast=False) in combos and Demo(size=2, fast=True) in combos


def test_to_dict_and_non_default() -> None:
    d = Demo(size=3)
    assert d.to_dict() == {"size": 3, "fast": False, "name": "a", "ratio": 0.5}
    assert d.non_default() == {"size": 3}


def test_parse_option_assignments() -> None:
    assert parse_option_assignments(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    with pytest.raises(OptionError, match="key=value"):
        parse_option_assignments(["oops"])
