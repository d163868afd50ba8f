"""Write docs/api.md, the library's API page, from the docstrings of ginref's public names.

    python tools/api_page.py          # rewrite docs/api.md
    python tools/api_page.py --check  # exit 1 when docs/api.md is stale

tests/project/test_api_docs.py fails when the page is stale or a public name is undocumented.
"""

from __future__ import annotations

import enum
import inspect
import sys
from pathlib import Path

import ginref

PAGE = Path(__file__).resolve().parent.parent / "docs" / "api.md"
INTRO = """# The ginref library

Everything below is reachable as `ginref.NAME` (`dir(ginref)` lists it). Cards are ints
0..51 (`suit * 13 + rank`, suits C D H S, ace 0), card sets are 52-bit int masks, and
every value is immutable and its `repr()` pastes back. Values are frozen msgspec Structs
(change one with `msgspec.structs.replace`), which are made five to ten times as fast as
frozen dataclasses and cost next to nothing at import. A `Rules` variant is best built
with `with_overrides`, which checks each value and records what changed in `overrides`.
Records and their events compare equal whatever their places in a source
(`ginref.records.model.compared_fields`).
Every error is a `ginref.GinrefError`. This page is generated from the docstrings by
`python tools/api_page.py`; a test fails when it is stale.
"""


def public_names() -> list[str]:
    """The exported names in the order ginref groups them, modules first to last."""
    return [name for name in ginref._EXPORTS if name in ginref.__all__]


def _signature(obj: object) -> str:
    try:
        return str(inspect.signature(obj))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return ""


def summary(doc: str) -> str:
    """A member's line: its docstring's first paragraph, on one line. The first line alone is not
    enough, as a docstring wrapped at the line length would stop mid-sentence."""
    return " ".join(doc.split("\n\n", 1)[0].split())


def _members(cls: type) -> list[str]:
    """The documented public methods and properties a class adds, one line each."""
    lines = []
    for name, member in vars(cls).items():
        if name.startswith("_") or not (callable(member) or isinstance(member, (property, classmethod))):
            continue
        function = member.__func__ if isinstance(member, classmethod) else member
        doc = inspect.getdoc(function.fget if isinstance(function, property) else function)
        if doc:
            call = "" if isinstance(function, property) else _signature(function)
            call = call.replace("(self, ", "(").replace("(cls, ", "(").replace("(self)", "()")
            lines.append(f"- `{name}{call}`: {summary(doc)}")
    return lines


ALIASES = {"Card": "a card, an int 0..51: `suit * 13 + rank`, suits C D H S, ace 0"}


def own_doc(obj: object) -> str:
    """The docstring ``obj`` itself has (a class's, not one inherited from ``Enum`` or ``int``)."""
    doc = vars(obj).get("__doc__") if inspect.isclass(obj) else inspect.getdoc(obj)
    return inspect.cleandoc(doc) if isinstance(doc, str) else ""


def entry(name: str) -> str:
    """One name's section: its signature, its docstring, and for a class its methods."""
    obj = getattr(ginref, name)
    if name in ALIASES:
        return f"### `{name}` = `{obj.__name__}`\n\n{ALIASES[name]}\n"
    if inspect.isfunction(obj):
        return f"### `{name}{_signature(obj)}`\n\n{own_doc(obj)}\n"
    if inspect.isclass(obj):
        parts = [f"### class `{name}`", "", own_doc(obj)]
        if issubclass(obj, enum.Enum):
            parts += ["", "members: " + ", ".join(f"`{m.name}` ({m.value!r})" for m in obj)]
        elif not issubclass(obj, BaseException) and _members(obj):
            parts += ["", *_members(obj)]
        return "\n".join(parts).rstrip() + "\n"
    return f"### `{name}`\n\n{type(obj).__name__}: {', '.join(map(str, obj))}\n"


def page() -> str:
    sections: dict[str, list[str]] = {}
    for name in public_names():
        module = ginref._EXPORTS[name]
        sections.setdefault(module, []).append(entry(name))
    parts = [INTRO]
    for module, entries in sections.items():
        parts.append(f"## `{module}`\n")
        parts.extend(entries)
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = page()
    if "--check" in argv:
        fresh = PAGE.exists() and PAGE.read_text(encoding="utf-8") == text
        print("docs/api.md is up to date" if fresh else "docs/api.md is stale: run python tools/api_page.py")
        return 0 if fresh else 1
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
