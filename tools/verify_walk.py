"""The walk of one ``ginref verify FILE``: which of ginref's modules it crosses, and where the
path goes back and forth between two of them.

The layering is meant to read top-down: the CLI calls the library, the library reads, then
rules. A pair of modules that call each other both ways (``a -> b`` and ``b -> a``) is a
back-and-forth: a reader following one record has to hold both in mind at once. The figure
counts calls, not time, so it is the same on every machine.

    python tools/verify_walk.py samples/records/eleven-card.gin [--jobs 1]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections import Counter
from types import FrameType
from typing import Any

Edge = tuple[str, str]
"""(caller, callee) modules"""
Place = tuple[str, str]
"""a module and a function's qualified name"""
PACKAGES = ("records", "referee", "batch", "render", "cli")


def _place(frame: FrameType | None) -> tuple[str, str] | None:
    """The module and function of the nearest ginref frame at or above ``frame``; closures
    (generator expressions, lambdas) count as their enclosing function's."""
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if isinstance(name, str) and name.startswith("ginref") and not frame.f_code.co_name.startswith("<"):
            return name, frame.f_code.co_qualname
        frame = frame.f_back
    return None


def walk(argv: list[str]) -> tuple[Counter[Edge], Counter[tuple[Place, Place]]]:
    """Run ``ginref`` with ``argv`` in this process; count its calls between modules, and
    between functions of different packages (``records`` and ``batch``, say)."""
    from ginref.cli import main

    edges: Counter[Edge] = Counter()
    sites: Counter[tuple[Place, Place]] = Counter()

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call" or frame.f_code.co_name.startswith("<"):
            return
        callee = _place(frame)
        caller = _place(frame.f_back)
        if callee is None or caller is None or caller[0] == callee[0]:
            return
        edges[(caller[0], callee[0])] += 1
        if _package(caller[0]) != _package(callee[0]):
            sites[(caller, callee)] += 1

    _run(main, argv)  # a first run imports what the command imports lazily: the walk counts calls only
    sys.setprofile(profile)
    try:
        _run(main, argv)
    finally:
        sys.setprofile(None)
    return edges, sites


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in PACKAGES else "core"


def _run(main: Any, argv: list[str]) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(argv)


def _short(module: str) -> str:
    return module.removeprefix("ginref.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--jobs", default="1")
    args = parser.parse_args()
    edges, sites = walk(["verify", args.file, "--jobs", args.jobs])
    modules = sorted({m for edge in edges for m in edge})
    both_ways = sorted((a, b) for (a, b) in edges if a < b and (b, a) in edges)
    print(f"modules crossed: {len(modules)}")
    print(f"calls between modules: {sum(edges.values())} over {len(edges)} edges")
    print(f"back-and-forths (pairs calling each other both ways): {len(both_ways)}")
    for a, b in both_ways:
        print(f"  {_short(a)} <-> {_short(b)}  ({edges[(a, b)]} / {edges[(b, a)]} calls)")
    print("modules: " + " ".join(_short(m) for m in modules))
    crossings = Counter((_package(a[0]), _package(b[0])) for a, b in sites)
    print(f"call sites between packages: {len(sites)}")
    for (a, b), count in sorted(crossings.items()):
        print(f"  {a} -> {b}: {count}")
    print("where the batch and the readers meet:")
    for a, b in sorted(sites):
        if {_package(a[0]), _package(b[0])} == {"batch", "records"}:
            print(f"  {_short(a[0])}.{a[1]} -> {_short(b[0])}.{b[1]}  ({sites[(a, b)]} calls)")


if __name__ == "__main__":
    main()
