"""``ginref verify`` of this tree against another copy of ginref, in the same run.

    python benchmarks/verify_versus.py --baseline /tmp/old-tree --records 4000 --rounds 5

The baseline is a folder holding a ``ginref`` package (``git archive HEAD~3 ginref | tar
-x -C /tmp/old-tree``); it runs with that folder first on ``PYTHONPATH``. Both trees
verify the same generated files, JSON Lines and text, ``--jobs 1`` and ``2``, in
interleaved rounds; each line gives the median and the range of wall time and of CPU
time (user+sys of the whole process tree), and records per CPU-second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from commands import child_env
from timing import Command, CommandTiming, time_round
from verify_bench import FORMATS, generate


def _command(label: str, path: Path, jobs: int, tree: str | None) -> Command:
    env = child_env()
    if tree:
        env["PYTHONPATH"] = tree
    argv = (sys.executable, "-m", "ginref", "verify", str(path), "--jobs", str(jobs))
    return Command(f"{label} {path.suffix[1:]} --jobs {jobs}", argv, env=env)


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f} s ({min(values):.2f}-{max(values):.2f})"


def _line(timing: CommandTiming, count: int) -> str:
    wall, cpu = timing.seconds, timing.cpu
    rates = f"{count / statistics.median(cpu):7,.0f} records/CPU-s  {count / statistics.median(wall):7,.0f}/s"
    return f"{timing.command.name:28} wall {_spread(wall)}  cpu {_spread(cpu)}  {rates}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="a folder holding the ginref package to compare")
    parser.add_argument("--records", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ginref-versus-") as folder:
        paths = generate(args.records, args.seed, Path(folder))
        timings = [CommandTiming(_command(label, paths[fmt], jobs, tree))
                   for fmt, _ in FORMATS for jobs in (1, 2)
                   for label, tree in (("baseline", args.baseline), ("this tree", None))]
        for timing in timings:
            timing.command.run()  # warm the file cache and the imports
        for _ in range(args.rounds):
            time_round(timings)
    for timing in timings:
        print(_line(timing, args.records))
    failed = [t.command.name for t in timings if t.returncodes - {0}]
    if failed:
        print(f"exited non-zero: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
