"""A one-hand command loads only what it uses: the plain table twin of tabulate, and which
modules ``ginref analyze HAND`` imports, in a real process."""

from __future__ import annotations

import contextlib
import gc
import site
import subprocess
import sys
from pathlib import Path

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

import ginref
from ginref.cli import cli
from ginref.cli.app import COMMANDS
from ginref.cli.importing import loading
from ginref.render.tables import plain_cells, plain_table, text_table

HAND = "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"

_cell = st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=12)


def _tabulated(rows: list[list[str]], headers: list[str], right: tuple[int, ...]) -> str:
    count = len(rows[0])
    align = ["right" if i in right else "left" for i in range(count)]
    if headers:
        return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True, colalign=align)
    return tabulate(rows, tablefmt="plain", disable_numparse=True, colalign=align)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.lists(st.lists(_cell, min_size=n, max_size=n), min_size=1, max_size=6),
    st.one_of(st.just([]), st.lists(_cell, min_size=n, max_size=n)),
    st.sets(st.integers(0, n - 1)),
)))
def test_the_plain_table_is_tabulates_own(table: tuple[list[list[str]], list[str], set[int]]) -> None:
    rows, headers, right = table
    if not plain_cells(rows, headers):  # a cell with an edge space: tabulate's, not the twin's
        assert any(c[0] == " " or c[-1] == " " for row in [headers, *rows] for c in row)
        return
    assert plain_table(rows, headers, tuple(right)) == _tabulated(rows, headers, tuple(right))


@pytest.mark.parametrize(
    ("rows", "headers", "plain"),
    [
        ([["hand", "3C 4C"]], [], True),
        ([["discard", "3", "[3C 4C 5C]", "no"], ["KH", "12", "none", "yes"]],
         ["discard", "deadwood", "melds", "knock"], True),
        ([["a", "x"], ["bb", ""]], [], False),  # an empty cell
        ([["a", "x"], ["bb"]], [], False),  # ragged rows
        ([["a", "x"]], ["h"], False),  # fewer headers than cells
        ([["\u2663 7", "x"]], [], False),  # a glyph
        ([["\x1b[31m7H\x1b[0m", "x"]], [], False),  # a colour
        ([["7H", 3]], [], False),  # not text
        ([], ["a", "b"], False),  # no rows
    ],
)
def test_only_plain_tables_skip_tabulate(rows: list[list[object]], headers: list[str], plain: bool) -> None:
    assert plain_cells(rows, headers) is plain
    if plain:
        text = [[str(c) for c in row] for row in rows]
        assert text_table(rows, headers, right=(1,)) == _tabulated(text, headers, (1,))


def _modules_after(*args: str) -> set[str]:
    """The modules a command loads, in a process that reads no ``.pth`` file, as under a plain
    install (an editable install's finder imports pathlib, say)."""
    paths = [str(Path(ginref.__file__).parents[1]), *site.getsitepackages()]
    code = (
        "import sys\n"
        f"sys.path[:0] = {paths!r}\n"
        "from ginref.cli import main\n"
        f"sys.argv = ['ginref', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert not exit.code, exit.code\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True)
    return set(done.stderr.split())


@pytest.mark.parametrize("args", [("analyze", HAND), ("analyze", HAND, "--json")])
def test_a_one_hand_analysis_loads_no_table_library(args: tuple[str, ...]) -> None:
    loaded = _modules_after(*args)
    assert "ginref.analysis" in loaded  # the command ran
    assert not {"tabulate", "importlib.metadata", "ginref.records", "ginref.batch"} & loaded
    assert "pathlib" not in loaded  # only a rules file needs it
    assert not {"ginref.cli.games", "ginref.cli.records", "ginref.cli.report"} & loaded  # no other command's


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_loads_as_the_name_it_is_listed_by(name: str) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None and command.name == name


def test_an_eleven_card_analysis_lays_out_its_discards_without_tabulate() -> None:
    loaded = _modules_after("analyze", HAND + " 8S")
    assert "ginref.analysis" in loaded
    assert "tabulate" not in loaded


_LOADS = {
    "the package": "import ginref.cli",
    "the group": "from ginref.cli import cli",
    "a command's module": (
        "import click\nfrom ginref.cli import cli\n"
        "assert cli.get_command(click.Context(cli), 'analyze') is not None\n"
        "assert 'ginref.cli.hands' in sys.modules"
    ),
}


@pytest.mark.parametrize("collecting", [True, False], ids=["enabled", "disabled"])
@pytest.mark.parametrize("load", sorted(_LOADS))
def test_loading_the_command_line_leaves_the_collector_as_it_was(load: str, collecting: bool) -> None:
    """A library or a test that loads the CLI finds the garbage collector enabled or disabled
    as before, and nothing of its own frozen (only the ``ginref`` process freezes)."""
    code = (
        "import gc, sys\n"
        f"{'gc.enable()' if collecting else 'gc.disable()'}\n"
        f"{_LOADS[load]}\n"
        "print(gc.isenabled(), gc.get_freeze_count())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [str(collecting), "0"]


@pytest.mark.parametrize("collecting", [True, False])
@pytest.mark.parametrize("fails", [True, False])
def test_a_paused_load_gives_the_collector_back_even_when_it_fails(collecting: bool, fails: bool) -> None:
    was = gc.isenabled()
    try:
        (gc.enable if collecting else gc.disable)()
        with contextlib.suppress(ImportError), loading():
            assert not gc.isenabled()
            if fails:
                raise ImportError("a module that would not load")
        assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()


def test_the_package_loads_click_and_typing_only_when_asked_for() -> None:
    """``import ginref.cli`` leaves click and typing to :func:`ginref.cli.main`'s paused load."""
    paths = [str(Path(ginref.__file__).parents[1]), *site.getsitepackages()]
    code = f"import sys\nsys.path[:0] = {paths!r}\nimport ginref.cli\nprint(' '.join(sys.modules))\n"
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True)
    assert not {"click", "typing", "ginref.cli.app"} & set(done.stdout.split())
