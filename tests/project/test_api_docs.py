"""The library is discoverable: dir() and help() list it, docs/api.md is the docstrings, every
public function documents its arguments and errors, reprs paste back, the README example types."""

from __future__ import annotations

import doctest
import importlib.util
import inspect
import pydoc
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ginref

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("api_page", ROOT / "tools" / "api_page.py")
assert _spec is not None and _spec.loader is not None
api_page = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(api_page)

NAMESPACE = {name: getattr(ginref, name) for name in ginref.__all__ if name != "__version__"}
FUNCTIONS = [n for n in api_page.public_names() if inspect.isfunction(getattr(ginref, n))]
NOT_OURS: dict[str, str] = {}
"""public functions another module's owner still has to document (marked strict xfail)"""


def test_dir_lists_the_public_api_and_every_name_resolves() -> None:
    assert dir(ginref) == sorted({*ginref.__all__, "batch", "records", "referee"})
    for name in dir(ginref):
        getattr(ginref, name)


def test_help_lists_the_functions_and_classes() -> None:
    text = pydoc.render_doc(ginref, renderer=pydoc.plaintext)
    for name in ("analyze(", "score_hand(", "class CardSet", "class Rules", "find_rules("):
        assert name in text


def test_the_api_page_is_the_docstrings() -> None:
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert page == api_page.page(), "docs/api.md is stale: run python tools/api_page.py"


def test_every_member_summary_is_a_whole_sentence() -> None:
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    summaries = re.findall(r"^- `[^`]*`: (.*)$", page, flags=re.M)
    assert len(summaries) > 50
    cut = [s for s in summaries if not (s[0].isupper() and s.endswith((".", "?")))]
    assert cut == [], f"summaries that are not whole sentences: {cut}"


def test_a_summary_is_the_whole_first_paragraph() -> None:
    assert api_page.summary("The deal of ``hand``, under ``rules``\n(None: its own).\n\nMore.") == (
        "The deal of ``hand``, under ``rules`` (None: its own).")


def test_the_api_page_examples_run_as_written() -> None:
    """The page says every name is ``ginref.NAME``: its examples run with those names and no others."""
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(page, dict(NAMESPACE), "docs/api.md", "docs/api.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 4


@pytest.mark.parametrize("name", api_page.public_names())
def test_every_public_class_and_function_has_a_docstring(name: str) -> None:
    obj = getattr(ginref, name)
    if inspect.isclass(obj) or inspect.isfunction(obj):
        assert name in api_page.ALIASES or api_page.own_doc(obj)


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=f"{NOT_OURS[n]} documents it"))
     if n in NOT_OURS else n for n in FUNCTIONS],
)
def test_every_public_function_documents_its_arguments_and_errors(name: str) -> None:
    function = getattr(ginref, name)
    doc = api_page.own_doc(function)
    missing = [p for p in inspect.signature(function).parameters if f"``{p}``" not in doc]
    assert missing == [], f"{name} does not name {missing} in its docstring"
    assert re.search(r"\braise|never raises", doc, flags=re.I), f"{name} does not say what it raises"
    assert "Returns" in doc or "return" in doc.lower()


HAND = "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"
VALUES = [
    ginref.Meld.parse("3C 4C 5C"),
    ginref.Meld.parse("QC KC AC"),
    ginref.CardSet.parse("3C 4C TD"),
    ginref.best_arrangement(ginref.parse_hand(HAND).mask),
    ginref.find_rules("hoyle"),
    ginref.find_rules("tallynight"),
    ginref.with_overrides(ginref.find_rules("standard"), {"gin_bonus": 25, "tie_policy": "no_score"}),
    ginref.analyze(HAND),
    ginref.analyze(HAND + " 8S", ginref.find_rules("oklahoma"), upcard=ginref.parse_card("7S")),
    ginref.score_hand("3C 4C 5C 9D 9S 9H 6S 7S 8S 2D", "6C 9C 5S JH JC JD 4H AH 8D TD"),
    ginref.score_hand("5H 6H 7H 7C 7D 2S 3S 4S AC 2C", "8H 9H 7S KD QD JD 9C 9S 5C 3D",
                      melds="[5H 6H 7H] [2S 3S 4S]"),
]


@pytest.mark.parametrize("value", VALUES, ids=lambda v: type(v).__name__)
def test_reprs_are_short_and_paste_back(value: object) -> None:
    text = repr(value)
    assert eval(text, dict(NAMESPACE)) == value
    assert "mask=" not in text and len(text) < 200


def test_named_reprs() -> None:
    assert repr(ginref.Meld.parse("3C 4C 5C")) == "Meld.parse('3C 4C 5C')"
    assert repr(ginref.find_rules("hoyle")) == "find_rules('hoyle')"


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(0, 51), min_size=10, max_size=10))
def test_arrangements_and_analyses_paste_back(cards: set[int]) -> None:
    analysis = ginref.analyze(ginref.mask_of(cards))
    assert eval(repr(analysis), dict(NAMESPACE)) == analysis
    assert eval(repr(analysis.arrangement), dict(NAMESPACE)) == analysis.arrangement


def readme_examples() -> list[str]:
    """Each of the README's Python examples as a script: the doctest's source lines, in order,
    after the imports of the examples before it (the README reads as one session)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    scripts, imports = [], ""
    for block in re.findall(r"```python\n(.*?)```", readme, flags=re.S):
        source = "".join(example.source for example in doctest.DocTestParser().get_examples(block))
        scripts.append(imports + source)
        imports += "".join(line + "\n" for line in source.splitlines() if line.startswith("import "))
    return scripts


def test_the_readme_library_examples_pass_mypy_strict(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    scripts = readme_examples()
    assert len(scripts) >= 3 and "def choose(table: ginref.Table) -> ginref.Move:" in scripts[0]
    paths = []
    for number, script in enumerate(scripts, 1):
        paths.append(tmp_path / f"readme_example_{number}.py")
        paths[-1].write_text(script, encoding="utf-8")
    # the examples of the extras import pyspiel, OpenSpiel's algorithms and Shimmy, which ship no types
    out, err, status = api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                                "--disable-error-code", "import-not-found",
                                "--disable-error-code", "import-untyped", *map(str, paths)])
    assert status == 0, out + err
