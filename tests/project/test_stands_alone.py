"""What ginref ships cites only what it ships.

Samples, docs and `ginref rules` once cited rules texts the project does not ship
(``shared/rules/000_....txt``, ``VARIANTS.md section 9``, ``NOTATION.md section 6``,
"(seed 000)", "seed 003"): a user cannot know what those are. A rules source is named by
what it is (docs/rule-sources.md says each in ginref's own words); this scan keeps such
citations from coming back.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ginref.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ["README.md", "docs", "samples", "ginref"]
"""what a user reads: the README, the docs, the samples and the package (its docstrings,
messages, rule descriptions and schemas)"""
UNSHIPPED = re.compile(
    r"shared/rules"                       # the folder of the rules texts
    r"|\b(?:VARIANTS|NOTATION|STYLE)\.md"  # the survey, the notation draft, the style guide
    r"|\b\d{3}_[0-9a-f]{16}\.txt"         # a rules text by file name
    r"|\bseeds? \d{3}\b|\bseeds \d{3}/"   # "seed 000", "seeds 000/001"
    r"|\(seeds\)|\bthe seeds\b",          # the rules texts by their working name
)


def _shipped_files() -> list[Path]:
    found: list[Path] = []
    for name in SHIPPED:
        path = ROOT / name
        found.extend([path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()))
    return [p for p in found if p.suffix not in (".bin", ".pyc")]


def test_the_scan_covers_every_kind_of_shipped_file() -> None:
    suffixes = {p.suffix for p in _shipped_files()}
    assert {".md", ".py", ".gin", ".json", ".jsonl", ".sheet", ".txt"} <= suffixes


@pytest.mark.parametrize("text", [
    "see shared/rules/000_6df84c89b596443b.txt", "VARIANTS.md section 9", "NOTATION.md section 6",
    "Pagat/Bicycle (seed 000)", "seed 003 says", "follows seeds 000/001/003", "the loser (seeds)",
    "003_7e1ee817eb8c7e54.txt",
])
def test_the_scan_finds_each_kind_of_citation(text: str) -> None:
    assert UNSHIPPED.search(text)


@pytest.mark.parametrize("text", ["--seed 2026", "(seed 1)", "a seeded run", "docs/rule-sources.md"])
def test_the_scan_lets_random_seeds_and_shipped_files_be(text: str) -> None:
    assert not UNSHIPPED.search(text)


def test_shipped_files_cite_only_what_ships() -> None:
    found = []
    for path in _shipped_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            match = UNSHIPPED.search(line)
            if match:
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)!r}")
    assert not found, "\n".join(found)


def test_every_rules_source_named_in_the_docs_is_on_the_sources_page() -> None:
    sources = (ROOT / "docs" / "rule-sources.md").read_text()
    for name in ("the classic rules", "the general rules page", "the rules explainer",
                 "the score keeper's guide", "the card site's rules", "the survey of variants"):
        assert f"**{name}**" in sources


def test_the_rule_sets_ginref_rules_lists_cite_no_unshipped_text() -> None:
    listed = CliRunner().invoke(cli, ["rules", "--json"])
    assert listed.exit_code == 0
    assert not UNSHIPPED.search(listed.output)
