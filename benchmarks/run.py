"""ginref's speed, measured against its peers in one run.

    pip install '.[bench]'          # ginref plus the peers: OpenSpiel, RLCard (and pyinstrument)
    python benchmarks/run.py        # everything; writes benchmarks/results.json
    python benchmarks/run.py --smoke   # a few hundred hands, peers optional (CI)

Least deadwood (in process, pinned to one core): every hand class is dealt from
a fixed seed; ginref, OpenSpiel, RLCard take turns on the same hands, round
after round, and the median round counts. Answers are compared with ginref's,
and the naive exhaustive search rules on the first hands of each class and on
every hand an exact peer disputes.

Command line (subprocesses, same interpreter): ``ginref analyze -`` throughput,
``ginref analyze HAND --json`` start-up against ``python -c "import click"``,
and ``ginref verify`` over generated records, JSON Lines and text, ``--jobs 1``
and ``--jobs 2``, and once against ``--scheduler local`` (with the dask extra; the full
comparison is ``benchmarks/verify_dask.py``); ``ginref report`` against ``ginref verify`` on
the same generated games (``benchmarks/report_bench.py``, target: at most 1.2x); ``ginref report
--standings`` against ``ginref report`` (``benchmarks/standings_bench.py``, target: at most 1.2x;
its own run takes 100,000 games).

Exit status: 0 when healthy, 1 when ginref disagrees with the naive search or
a command misbehaves (with ``--strict``, also when a target is missed).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import advise_bench
import commands
import deadwood
import docs_page
import report
import report_bench
import standings_bench
import verify_bench
import verify_dask
from hands import analyze_hands, hand_classes
from peers import available_peers
from timing import pinned_to_one_core

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results.json"


@dataclasses.dataclass(frozen=True)
class Sizes:
    """How much work each part does; ``min_seconds`` is the least time per contestant per round."""

    hands: int
    rounds: int
    min_seconds: float
    naive_hands: int
    cli_hands: int
    cli_rounds: int
    startup_runs: int
    records: int
    verify_rounds: int


FULL = Sizes(
    2000, 9, 0.05, 500, cli_hands=20_000, cli_rounds=5, startup_runs=21, records=20_000, verify_rounds=3
)
SMOKE = Sizes(300, 3, 0.01, 300, cli_hands=300, cli_rounds=1, startup_runs=3, records=200, verify_rounds=1)


@dataclasses.dataclass(frozen=True)
class Settings:
    sizes: Sizes
    seed: int
    peers: bool
    cli: bool
    verify: bool
    smoke: bool
    advise: bool = True


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add = parser.add_argument
    add("--smoke", action="store_true", help="a quick health check: few hands, peers optional")
    add("--hands", type=int, help=f"hands per class ({FULL.hands}; smoke {SMOKE.hands})")
    add("--rounds", type=int, help=f"timed rounds per class ({FULL.rounds}; smoke {SMOKE.rounds})")
    add("--min-seconds", type=float, help=f"least time per contestant per round ({FULL.min_seconds})")
    add("--naive-hands", type=int, help=f"hands per class checked by the naive search ({FULL.naive_hands})")
    add("--cli-hands", type=int, help=f"hands piped to `ginref analyze -` ({FULL.cli_hands})")
    add("--cli-rounds", type=int, help=f"timed runs per command ({FULL.cli_rounds})")
    add("--startup-runs", type=int, help=f"timed start-ups of each command ({FULL.startup_runs})")
    add("--records", type=int, help=f"records generated for `ginref verify` ({FULL.records})")
    add("--verify-rounds", type=int, help=f"timed runs of each `ginref verify` line ({FULL.verify_rounds})")
    add("--seed", type=int, default=1)
    add("--no-peers", action="store_true", help="time ginref and the naive search only")
    add("--no-cli", action="store_true", help="skip every subprocess measurement")
    add("--no-verify", action="store_true", help="skip `ginref verify`")
    add("--no-advise", action="store_true", help="skip `ginref.advise` (sampled and exact, one core)")
    add("--output", type=Path, help="results JSON (default: benchmarks/results.json; smoke: none)")
    add("--markdown", type=Path, help="also write the docs page here (docs/benchmarks.md)")
    add("--from-json", type=Path, help="render a saved results file; measure nothing")
    add("--strict", action="store_true", help="exit 1 when a target is missed")
    return parser.parse_args(argv)


def settings_from(args: argparse.Namespace) -> Settings:
    defaults = SMOKE if args.smoke else FULL
    names = [f.name for f in dataclasses.fields(Sizes)]
    given = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    return Settings(
        dataclasses.replace(defaults, **given),
        seed=args.seed,
        peers=not args.no_peers,
        cli=not args.no_cli,
        verify=not (args.no_cli or args.no_verify),
        smoke=args.smoke,
        advise=not args.no_advise,
    )


def progress(message: str) -> None:
    print(f"... {message}", file=sys.stderr, flush=True)


def peer_notes(settings: Settings) -> tuple[bool, list[str]]:
    """Whether any peer can be timed, and a note for each one that cannot."""
    if not settings.peers:
        return False, ["peers skipped (--no-peers)"]
    versions = available_peers()
    missing = [name for name, version in versions.items() if not version]
    notes = [f"peer {name} skipped: not importable (pip install '.[bench]')" for name in missing]
    return any(versions.values()), notes


def measure_library(settings: Settings, with_peers: bool) -> list[dict[str, Any]]:
    sizes = settings.sizes
    progress(f"dealing {sizes.hands} hands per class (seed {settings.seed})")
    classes = hand_classes(sizes.hands, settings.seed)
    with pinned_to_one_core() as cpu:
        progress(f"least deadwood pinned to CPU {cpu}" if cpu is not None else "least deadwood (not pinned)")
        results = deadwood.bench_all(
            classes, sizes.rounds, sizes.min_seconds, sizes.naive_hands, with_peers, progress
        )
    return [deadwood.to_dict(result) for result in results]


def measure_cli(settings: Settings, results: dict[str, Any]) -> list[str]:
    """Fill in the subprocess figures; return the problems seen."""
    problems: list[str] = []
    sizes = settings.sizes
    hands = analyze_hands(sizes.cli_hands, settings.seed)
    progress(f"ginref analyze - over {len(hands):,} hands")
    results["analyze"] = []
    for item in commands.analyze_throughput(hands, sizes.cli_rounds):
        results["analyze"].append(dataclasses.asdict(item))
        problems.extend(item.problems)
    progress(f"start-up, {sizes.startup_runs} runs each")
    startup = commands.startup(sizes.startup_runs)
    results["startup"] = dataclasses.asdict(startup)
    problems.extend(startup.problems)
    if settings.verify:
        progress(f"ginref verify over {sizes.records:,} generated records")
        results["verify"] = verify_bench.measure(sizes.records, settings.seed, sizes.verify_rounds, progress)
        problems.extend(results["verify"].get("problems", []))
        games = max(20, sizes.records // 10)
        progress(f"ginref report against ginref verify over {games:,} generated games (report_bench.py)")
        results["report"] = report_bench.measure(games, settings.seed, sizes.verify_rounds, progress)
        problems.extend(results["report"].get("problems", []))
        progress(f"ginref report --standings against ginref report over {games:,} games (standings_bench.py)")
        results["standings"] = standings_bench.measure(games, settings.seed, sizes.verify_rounds, progress,
                                                       distinct=min(games, 2000))
        problems.extend(results["standings"].get("problems", []))
        progress(f"ginref verify --scheduler local over {sizes.records:,} records (verify_dask.py)")
        results["verify_dask"] = verify_dask.measure(sizes.records, settings.seed, 1, progress, memory=False)
        problems.extend(results["verify_dask"].get("problems", []))
    return problems


def measure(settings: Settings, argv: Sequence[str]) -> dict[str, Any]:
    with_peers, notes = peer_notes(settings)
    flat = {**dataclasses.asdict(settings.sizes), **dataclasses.asdict(settings)}
    del flat["sizes"]
    results = report.header(argv, flat)
    results["least_deadwood"] = measure_library(settings, with_peers)
    problems = measure_cli(settings, results) if settings.cli else []
    if settings.advise:
        results["advise"] = advise_bench.measure(settings.seed, settings.smoke, progress)
    results["machine"]["load_average_after"] = report.machine()["load_average"]
    results["targets"] = report.targets(results, judge_speed=not settings.smoke)
    if settings.smoke:
        notes.append("smoke run: too little work to judge the speed targets (n/a); only correctness counts")
    results["notes"] = notes
    results["problems"] = problems
    return results


def exit_status(results: dict[str, Any], strict: bool) -> int:
    wrong = sum(item["naive_disagreements"] for item in results["least_deadwood"])
    if wrong or results.get("problems"):
        return 1
    if strict and any(t["passed"] is False for t in results["targets"]):
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.from_json:
        results = json.loads(args.from_json.read_text(encoding="utf-8"))
    else:
        settings = settings_from(args)
        results = measure(settings, [sys.argv[0], *(sys.argv[1:] if argv is None else argv)])
        output = args.output or (None if args.smoke else RESULTS)
        if output:
            output.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
            progress(f"wrote {output}")
    print(report.console(results))
    for problem in results.get("problems", []):
        print(f"problem: {problem}", file=sys.stderr)
    if args.markdown:
        args.markdown.write_text(docs_page.page(results), encoding="utf-8")
        progress(f"wrote {args.markdown}")
    return exit_status(results, args.strict)


if __name__ == "__main__":
    sys.exit(main())
