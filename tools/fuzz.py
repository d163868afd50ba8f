"""Fuzz every ginref parse entry point with large counts, in parallel.

    python tools/fuzz.py --count 20000 --seed 1 --jobs 2
    python tools/fuzz.py --count 1000000 --entry records_jsonl --out /tmp/escapes
    python tools/fuzz.py --replay /tmp/escapes/override-1-4711.min.in

Prints, per entry point, tried / accepted / rejected (GinrefError) / escaped,
error messages that break the one-short-line rule, the largest input and the
slowest one; writes each distinct escape (input and a shrunk input, with the
traceback) to the ``--out`` folder. The harness is ``tests/support/fuzz.py``,
the same one ``tests/properties/test_fuzz.py`` runs in CI.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import sys
import tempfile
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.fuzz import ENTRY_POINTS, Escape, Tally, replay, run, shrink

CHUNK = 2_000


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20_000, help="inputs per entry point")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--entry", action="append", choices=sorted(ENTRY_POINTS),
                        help="only this entry point (repeatable)")
    parser.add_argument("--timeout", type=float, default=10.0, help="CPU seconds until an input is a hang")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "ginref-fuzz",
                        help="folder for escaping inputs (default: %(default)s)")
    parser.add_argument("--no-shrink", action="store_true", help="write escapes as found, unshrunk")
    parser.add_argument("--replay", type=Path, nargs="+", metavar="FILE", help="re-run saved inputs")
    return parser.parse_args(argv)


def _chunk(name: str, seed: int, start: int, stop: int, timeout: float) -> Tally:
    return run(ENTRY_POINTS[name], seed, start, stop, timeout=timeout)


def _fuzz(names: list[str], args: argparse.Namespace) -> dict[str, Tally]:
    tasks = [(name, start, min(args.count, start + CHUNK)) for name in names
             for start in range(0, args.count, CHUNK)]
    tallies = {name: Tally(name) for name in names}
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(_chunk, name, args.seed, a, b, args.timeout) for name, a, b in tasks]
        for future in concurrent.futures.as_completed(futures):
            tally = future.result()
            tallies[tally.entry] = tallies[tally.entry].merged(tally)
    return tallies


def _table(tallies: dict[str, Tally]) -> str:
    head = ("entry", "tried", "accepted", "rejected", "escaped", "bad msg", "largest",
            "slowest (size, CPU s, index)", "cpu s")
    rows = [head] + [
        (t.entry, str(t.tried), str(t.accepted), str(t.rejected), str(t.escaped), str(t.bad_message_count),
         str(t.largest), f"{t.slowest[1]}, {t.slowest[0]:.3f}, #{t.slowest[2]}", f"{t.seconds:.1f}")
        for t in tallies.values()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(cell.rjust(w) if i else cell.ljust(w)
                       for i, (cell, w) in enumerate(zip(row, widths, strict=True))) for row in rows]
    return "\n".join([lines[0], "-" * len(lines[0]), *lines[1:]])


def _save(escape: Escape, small: str | bytes, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{escape.entry}-{escape.seed}-{escape.index}"

    def raw(data: str | bytes) -> bytes:
        return data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")

    stem.with_suffix(".in").write_bytes(raw(escape.data))
    stem.with_suffix(".min.in").write_bytes(raw(small))
    stem.with_suffix(".txt").write_text(escape.describe(small) + "\n", encoding="utf-8")
    return stem


def _report_escapes(tallies: dict[str, Tally], args: argparse.Namespace) -> int:
    total = 0
    for tally in tallies.values():
        counts = dict(tally.escape_counts)
        for escape in tally.escapes:
            total += 1
            entry = ENTRY_POINTS[escape.entry]
            small = escape.data if args.no_shrink else shrink(entry, escape, timeout=args.timeout)
            stem = _save(escape, small, args.out)
            print(f"\n[{counts[escape.signature]}x] {escape.describe(small)}\n    saved {stem}.in, .min.in")
        for bad in tally.bad_messages:
            print(f"\n[message] {bad.describe()}")
    return total


def _replay(paths: list[Path], timeout: float) -> int:
    """Re-run saved inputs: the entry point is the file name up to its seed."""
    failed = 0
    for path in paths:
        name = path.name.rsplit("-", 2)[0]
        entry = ENTRY_POINTS[name]
        raw = path.read_bytes()
        data = raw if entry.binary else raw.decode("utf-8", "surrogatepass")
        result = replay(entry, data, timeout=timeout)
        if isinstance(result, BaseException):
            failed += 1
            print(f"{path}: escapes:")
            traceback.print_exception(type(result), result, result.__traceback__)
        else:
            verdict = "accepted" if result.accepted else "rejected"
            print(f"{path}: {verdict} {[str(e) for e in result.errors]}")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    if args.replay:
        return _replay(args.replay, args.timeout)
    names = args.entry or list(ENTRY_POINTS)
    tallies = _fuzz(names, args)
    print(f"seed {args.seed}, {args.count} inputs per entry point, {args.jobs} job(s)\n")
    print(_table({name: tallies[name] for name in names}))
    return 1 if _report_escapes(tallies, args) else 0


if __name__ == "__main__":
    sys.exit(main())
