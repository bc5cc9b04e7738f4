"""The option view: spellings of the same option normalise to the same name."""

from __future__ import annotations

import dataclasses

import pytest

from policylang import _native
from policylang.shell.options import (
    DEFAULT_OPTION_SPECS,
    Option,
    OptionSpec,
    OptionView,
    option_view,
)
from policylang.shell.parse import parse_command

SED = DEFAULT_OPTION_SPECS["sed"]


def view(text: str, spec: OptionSpec) -> OptionView:
    return option_view(parse_command(text).segments[0].words, spec)


def pairs(text: str, spec: OptionSpec) -> list[tuple[str, str | None]]:
    return [(o.name, o.value) for o in view(text, spec).options]


@pytest.mark.parametrize(
    "text",
    [
        "sed -i s/a/b/ f",
        "sed -ni s/a/b/ f",
        "sed -i.bak s/a/b/ f",
        "sed --in-place s/a/b/ f",
        "sed --in-place=.bak s/a/b/ f",
        "sed --in-pl s/a/b/ f",
        "sed -\\i s/a/b/ f",
        "sed '-i' s/a/b/ f",
        "sed -n -e p -i f",
        "sed -- -i",  # not an option after `--`, so must NOT count …
    ],
)
def test_in_place_cannot_be_dodged(text: str) -> None:
    has = view(text, SED).has("-i", "--in-place")
    assert has is (not text.endswith("-- -i"))


def test_bundles_split_and_values_attach() -> None:
    rm = DEFAULT_OPTION_SPECS["rm"]
    assert pairs("rm -rf x", rm) == [("-r", None), ("-f", None)]
    assert pairs("sort -n5 -k2 -k 3 -o out f", DEFAULT_OPTION_SPECS["sort"]) == [
        ("-n", None),
        ("-5", None),
        ("-k", "2"),
        ("-k", "3"),
        ("-o", "out"),
    ]
    assert pairs("sed -in f", SED) == [("-i", "n")]  # GNU sed: suffix `n`


def test_long_option_with_and_without_equals() -> None:
    grep = DEFAULT_OPTION_SPECS["grep"]
    assert pairs("grep --regexp=x --regexp y --color f", grep) == [
        ("--regexp", "x"),
        ("--regexp", "y"),
        ("--color", None),
    ]


def test_operands_and_double_dash() -> None:
    result = view("rm -f a -- -r b", DEFAULT_OPTION_SPECS["rm"])
    assert result.operands == (2, 4, 5)
    assert not result.has("-r")


def test_options_after_operands_count_gnu_style() -> None:
    assert view("rm a -rf", DEFAULT_OPTION_SPECS["rm"]).has("-r")


def test_posix_style_stops_at_the_first_operand() -> None:
    result = view("git -C dir commit -a", DEFAULT_OPTION_SPECS["git"])
    assert [(o.name, o.value) for o in result.options] == [("-C", "dir")]
    assert result.rest == 3


def test_non_literal_words_that_may_be_options_are_unknown() -> None:
    result = view('rm $FLAGS * x$y x"$y" ./f', DEFAULT_OPTION_SPECS["rm"])
    # `x$y` too: bash splits it, and a word after the first may be `-f` (review CF3); it is
    # an operand all the same (its first word is)
    assert result.unknown == (1, 2, 3)
    assert result.operands == (3, 4, 5)


def test_non_literal_option_value() -> None:
    (option,) = view('sort -o "$OUT" f', DEFAULT_OPTION_SPECS["sort"]).options
    assert (option.name, option.value, option.literal, option.arg_indexes) == (
        "-o",
        None,
        False,
        (2,),
    )


def test_option_value_bash_may_split_is_also_unknown() -> None:
    # `ps -o args${IFS}e` hands ps `e` (review CF4): the option keeps its value, and the
    # word is unknown too, as a word that may be options
    spec = OptionSpec(takes_value=frozenset({"-o", "-p"}))
    result = view('ps -o args${IFS}e -p x"$P"', spec)
    assert [o.name for o in result.options] == ["-o", "-p"]
    assert result.unknown == (2,)


def test_find_single_dash_long_and_exec() -> None:
    find = DEFAULT_OPTION_SPECS["find"]
    result = view("find . -name '*.py' -exec rm {} \\; -delete", find)
    names = [(o.name, o.value) for o in result.options]
    assert names == [("-name", "*.py"), ("-exec", None), ("-delete", None)]
    assert result.find("-exec")[0].arg_indexes == (5, 6)
    assert result.operands == (1,)


def test_single_dash_long_options_take_glued_values() -> None:
    """Go's `-toolexec=./x` and gcc's `-fplugin=x.so`, `-Wl,-plugin,x.so` (review AF2)."""
    spec = OptionSpec(
        single_dash_long=frozenset({"-toolexec", "-Wl"}), takes_value=frozenset({"-B"})
    )
    assert pairs("go -toolexec=./x -Wl,-plugin,y.so -Bdir -toolexecx", spec) == [
        ("-toolexec", "./x"),
        ("-Wl", "-plugin,y.so"),
        ("-B", "dir"),
        ("-t", None),
        ("-o", None),
        ("-o", None),
        ("-l", None),
        ("-e", None),
        ("-x", None),
        ("-e", None),
        ("-c", None),
        ("-x", None),
    ]


def test_tar_old_style_bundle() -> None:
    tar = DEFAULT_OPTION_SPECS["tar"]
    result = view("tar czf out.tgz dir", tar)
    assert [(o.name, o.value) for o in result.options] == [
        ("-c", None),
        ("-z", None),
        ("-f", "out.tgz"),
    ]
    assert result.operands == (3,)


def test_unknown_options_are_marked() -> None:
    result = view("rm --frobnicate -Z x", DEFAULT_OPTION_SPECS["rm"])
    assert [(o.name, o.known) for o in result.options] == [("--frobnicate", False), ("-Z", False)]


def test_ambiguous_long_prefix_is_left_alone() -> None:
    spec = OptionSpec(flags=frozenset({"--verbose", "--version"}))
    assert pairs("x --ver", spec) == [("--ver", None)]
    assert pairs("x --verb", spec) == [("--verbose", None)]


def test_values_and_names_helpers() -> None:
    result = view("sort -k1 -k2 f", DEFAULT_OPTION_SPECS["sort"])
    assert result.values("-k") == ("1", "2")
    assert result.names == frozenset({"-k"})


def test_missing_value_at_the_end() -> None:
    (option,) = view("sort -o", DEFAULT_OPTION_SPECS["sort"]).options
    assert (option.name, option.value, option.arg_indexes) == ("-o", None, ())


def test_specs_can_be_replaced_field_by_field() -> None:
    import dataclasses

    spec = dataclasses.replace(SED, flags=SED.flags | {"--zap"})
    assert "--zap" in spec.known
    assert spec.expand_long("--za") == "--zap"


@pytest.mark.parametrize("cls", [Option, OptionView])
def test_option_twins_mirror_every_field(cls: type) -> None:
    from policylang.shell import options

    names = tuple(f.name for f in dataclasses.fields(cls))
    if _native.COMPILED:
        assert options.TWINS[cls] is None  # a compiled class is built by its constructor
    else:
        assert options.TWINS[cls].__slots__ == names


def test_built_options_equal_constructed_ones() -> None:
    from policylang.shell import options

    built = options._option("-n", "5", 1, True, False, (2,))
    assert type(built) is Option
    assert built == Option(name="-n", value="5", word_index=1, known=False, arg_indexes=(2,))
    assert hash(built) == hash(
        Option(name="-n", value="5", word_index=1, known=False, arg_indexes=(2,))
    )
    view = options._view((built,), (3,), (), 4)
    assert view == OptionView(options=(built,), operands=(3,), rest=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.rest = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "name", "value"),
    [
        ("less --LESSKEY-SRC=lk f", "--lesskey-src", "lk"),
        ("less --Lesskey-Src lk f", "--lesskey-src", "lk"),
        ("less --LESSKEY-S=lk f", "--lesskey-src", "lk"),
        ("less --TAG=x", "--tag", "x"),
        ("less --LOG-FILE=out f", "--log-file", "out"),
    ],
)
def test_less_long_options_ignore_case(text: str, name: str, value: str) -> None:
    # review E6: less matches long option names in any case, abbreviated or not
    words = parse_command(text).segments[0].words
    view = option_view(words, DEFAULT_OPTION_SPECS["less"])
    assert (view.options[0].name, view.options[0].value) == (name, value)


def test_other_commands_keep_the_case_of_long_options() -> None:
    words = parse_command("grep --REGEXP=x f").segments[0].words
    view = option_view(words, DEFAULT_OPTION_SPECS["grep"])
    assert view.options[0].name == "--REGEXP"


def test_plus_options_are_read_as_their_dash_form() -> None:
    spec = OptionSpec(
        takes_value=frozenset({"-o", "-c"}),
        flags=frozenset({"-e", "-x"}),
        stop_at_operand=True,
        plus_options=True,
    )
    found = view("bash +e +o errexit -c ls script", spec)
    assert [(o.name, o.value) for o in found.options] == [
        ("-e", None),
        ("-o", "errexit"),
        ("-c", "ls"),
    ]
    assert found.rest == 6  # the script
    # without the setting, `+e` is the first operand
    plain = dataclasses.replace(spec, plus_options=False)
    assert view("bash +e -c ls", plain).rest == 1
