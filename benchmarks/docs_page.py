"""``docs/benchmarks.md``, rendered from a results dict (``run.py --markdown docs/benchmarks.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from report import Results, cli_table, deadwood_table, machine_lines, targets_table

REPRODUCE = """\
```sh
python -m venv .venv && . .venv/bin/activate && pip install '.[bench]'
python benchmarks/run.py
```"""

METHOD = """\
- **Same hands for everyone.** Each class is dealt from `random.Random("ginref-bench:<seed>:<class>")`
  (seed 1), so every run and every contestant sees the same hands.
- **Least deadwood, in one process on one core** (`os.sched_setaffinity(0, {cpu})`). ginref is called as a
  library, `ginref.melds.min_deadwood(mask)` for 10 cards and `min_deadwood_after_discard(mask)` for 11,
  on masks from `ginref.cards.mask_of` built before the clock starts; each peer gets its own card form, also
  built before. OpenSpiel: `pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood`, called directly (C++
  via pybind11). RLCard: `get_best_meld_clusters` + `get_deadwood_count` (pure Python). Each contestant's
  first pass warms it up and sets how many passes make a round last at least `min_seconds`; then the
  contestants take turns (ginref, OpenSpiel, RLCard, ginref, ...) for several rounds with the garbage
  collector off, timed with `time.perf_counter`. The figure is the median round; a speed ratio is the
  median of the per-round ratios, since contestants in one round run back to back.
- **11 cards** means the least deadwood after the best discard. OpenSpiel's own 11-card `min_deadwood` is a
  heuristic (best 11-card meld group, then drop its highest deadwood card) that overstates the deadwood on
  some hands; it is timed and its mismatches are counted separately (`heuristic`). The exact OpenSpiel form
  is the minimum over the 11 discards of its 10-card call (`open-spiel exact`); RLCard is used the same way.
- **Checking.** Every answer is compared with ginref's (`differs from ginref`). The naive search (every set
  of disjoint melds, in Python) rules on the first `naive_hands` hands of each class and on every hand an
  exact peer disputes; `ginref is` against `naive` is a speed ratio on that subset.
- **Command line**, as subprocesses of the same interpreter: `ginref analyze -` reads random 10-card hands
  as text lines (output to `/dev/null`; one captured run checks every answer against the library);
  start-up is `ginref analyze "3C 4C 5C 9D 9S 9H KH 2D 6S 7S"`, text and `--json`, against
  `python -c "import click"`, interleaved, in CPU time (user+sys; `python benchmarks/commands.py` times it
  alone, with the ranges); `ginref verify` reads records (one seeded random legal hand each, from
  `tests.support.randomplay.random_hand`, so every one verifies clean; one captured run checks that)
  written into a temporary folder, once as JSON Lines and once as text, with `--jobs 1` and `--jobs 2`.
  Each figure is the median run, start-up included.
- The machine is shared and has two cores, so `--jobs 2` competes with whatever else runs there: read the
  load averages above next to the figures. Before each round of `verify` runs and after the last, the
  script measures the *machine ceiling*: how much plain-Python arithmetic two processes get through at
  once, as a multiple of what one gets through alone (2.00x on two idle cores); `--jobs 2` cannot beat
  it. Each round also starts two `--jobs 1` runs at once, one on each half of the records: what two
  independent ginref processes of the same work get done here, with their memory traffic, which plain
  arithmetic does not have; `--jobs 2`, with a parent that cuts the file and merges the results, can at
  best equal it. The `--jobs 2` speed-up (and the halves') is the median of the per-round ratios of
  `--jobs 1` time to its time."""


def _classes(results: Results) -> str:
    lines = [f"- `{item['name']}`: {item['description']}" for item in results["least_deadwood"]]
    return "\n".join(lines)


def _disputes(results: Results) -> str:
    lines = []
    for item in results["least_deadwood"]:
        for d in item["disputes"][:3]:
            lines.append(
                f"- `{item['name']}` `{d['hand']}`: {d['contestant']} {d['theirs']}, "
                f"ginref {d['ginref']}, naive {d['truth']}"
            )
    return "\n".join(lines) if lines else "None."


def _settings(s: dict[str, Any]) -> str:
    return (
        f"- least deadwood: {s['hands']:,} hands per class, {s['rounds']} rounds, "
        f"the naive search on {s['naive_hands']:,} of them\n"
        f"- command line: {s['cli_hands']:,} hands for `analyze -`, {s['startup_runs']} start-ups each, "
        f"{s['records']:,} records for `verify`, {s['verify_rounds']} runs each"
    )


STANDINGS_RESULTS = Path(__file__).resolve().parent / "standings_results.json"
"""the last run of ``benchmarks/standings_bench.py`` at full size (``--output`` writes it)"""


def _standings_section() -> str:
    """``report --standings`` over 100,000 games against ``report``, from its own saved run."""
    import json

    if not STANDINGS_RESULTS.exists():
        return ""
    from standings_bench import table

    result = json.loads(STANDINGS_RESULTS.read_text(encoding="utf-8"))
    # the figures are measured; the date and the machine's state are noted by hand
    return f"""
## `ginref report --standings` at scale

`benchmarks/standings_bench.py` runs `ginref report` and `ginref report --standings` (its default
bootstrap rounds) in turns over the same games, and compares their CPU time (user+sys of the whole
process tree, start-up included); the target is at most 1.2x. Its last full run
(`python benchmarks/standings_bench.py --output benchmarks/standings_results.json`), on
{result.get("date", "?")}, {result.get("note", "")}:

```text
{table(result)}
```

The standings add per game a few microseconds in the main process; their fit and bootstrap
depend on the pairs of players that met, not on the games (docs/standings.md).
"""


def page(results: Results) -> str:
    machine = "\n".join(f"- {line}" for line in machine_lines(results))
    settings = results["settings"]
    notes = "".join(f"\n- {note}" for note in results.get("notes", []))
    return f"""# Benchmarks

How fast ginref finds the least deadwood of a hand, next to two peers that do the same: OpenSpiel (C++)
and RLCard (Python), and how fast its command line starts, analyzes and verifies. One script measures
everything in one run: `benchmarks/run.py`. This page is its output; to render it again from the saved
figures: `python benchmarks/run.py --from-json benchmarks/results.json --markdown docs/benchmarks.md`.

## Reproduce

From a fresh checkout:

{REPRODUCE}

The figures land in `benchmarks/results.json` (machine, package versions, every round). `--smoke` is the quick
health check CI runs: 300 hands per class, the peers only if installed, exit 1 if ginref disagrees with the
naive search.

## Latest figures

{machine}
{_settings(settings)}{notes}

### Targets

{targets_table(results, "github")}

### Least deadwood (hands per second, one core)

`hands/s` is the median round; `ginref is` is how many times faster ginref is: the median, over the rounds,
of ginref's rate divided by the other search's rate in the same round (for the naive search, timed once on
its subset: the ratio of the rates).

{deadwood_table(results, "github")}

Hand classes:

{_classes(results)}

Disputed hands (first three per class; the naive search's answer is the truth):

{_disputes(results)}

### Command line

{cli_table(results, "github")}

## Where the time goes in `ginref verify`

The figures above come from `benchmarks/results.json`, the last full run. Instruction counts (callgrind),
which do not depend on the machine's load, and how `verify` is made fast are in
[verify-speed.md](verify-speed.md), the history of each change in
[history/verify-speed-journal.md](history/verify-speed-journal.md): JSON Lines records are decoded by
msgspec into wire Structs, events and verdicts are msgspec Structs, a plain `.gin` line is read in one
match, and an OpenSpiel-played record costs 0.69 M instructions as JSON Lines and 0.91 M as `.gin` (1.47 M
and 2.38 M before the work on speed began). `benchmarks/versus_openspiel.py` times the same 10,000 OpenSpiel
hands through OpenSpiel's own replay and through ginref in the same rounds: on 2026-12-04 (5 rounds,
medians, two runs) `verify()` in process ran 22.2x and 20.2x OpenSpiel's replay in CPU time, a whole `ginref
verify --jobs 1` 19.8x and 17.1x on JSON Lines and 14.8x and 12.4x on `.gin`, and the floor under any
referee in Python (msgspec's decode, moving the cards, the exact searches) 123x and 92x. The machine's state
moves these ratios by a tenth to a sixth from one run to the next, more than any change of the last rounds.

With `--jobs 2` and more, the workers read the files themselves: the main process forks them
(`ginref.batch.workers`: one task at a time over a pipe each, no process pool to import), cuts each file
into shards (`ginref.batch.shards.shards`: byte ranges of whole records, found by reading a few lines near
each cut), workers count and check them, and the main process only merges small results in order. Its own CPU
per record is about 2 to 5 µs by machine, JSON Lines and text alike
(`verify_bench.parent_cpu_per_record`): shards of 4 MiB, and a result that unpickles in 0.8 µs. Counting a
shard before the next can be placed costs the workers about 1 µs per JSON Lines record and 5 µs per text
record. Only standard input is read by the main process, and handed out in runs of 128 records.
`benchmarks/verify_versus.py` times this tree against an older copy in the same run, wall and CPU
(user+sys of the whole process tree).
{_standings_section()}

## Refereeing live

`benchmarks/table_versus_openspiel.py` replays the same OpenSpiel-played hands (2,000, a quarter with
`oklahoma=true`) as a game loop would, in one process, interleaved, CPU time: pyspiel's C++ engine
(`legal_actions()` then `apply_action` at every decision), `ginref.openspiel_game()` (the same calls),
and `ginref.Table` (the same hands as the table's moves: `legal_moves()` then `push` at every move,
`outcome()` at the end). Before timing, every history gives the same legal actions and returns in both
OpenSpiel-shaped engines. On 2026-12-04, 7 rounds, medians (range): pyspiel 2.867 s (2.792-2.900), 26.1 µs
per decision; `ginref.Table` 0.770 s (0.758-0.805), **push + legal_moves 7.6 µs per move** (101,055 moves),
**3.70x pyspiel** (3.59-3.77x by round; 14.6 µs and 2.01x before the discards came from per-byte tables, the
knocks were counted before they were arranged, the ruling was copied only by the moves that write it and
`outcome()` read the live replay's ruling); `ginref.openspiel_game()`, now a `Table` underneath (no rule of
its own), 1.288 s (1.250-1.331), 11.7 µs per decision, **2.23x pyspiel** (2.11-2.26x), against a floor of 1x
and a goal of 3x (3.81x when it kept its own copy of the rules of play). That loop replays greedy players'
hands, rich in knocks and layoffs, where pyspiel's C++ is slowest; OpenSpiel's own clients, below, spend
their time in random rollouts, where it is not.

### OpenSpiel's own clients

`benchmarks/openspiel_clients.py` runs OpenSpiel's Python clients as shipped (open_spiel 2.0.2) on
pyspiel's `gin_rummy` and on the registered `ginref_gin_rummy` (`openspiel` rules) with the same seeds,
interleaved client by client in one process, CPU time, garbage collector off: `mcts.MCTSBot` (UCT 2, 20
simulations a move, one random rollout each) against a uniform random bot, 4 hands; `ismcts.ISMCTSBot`
(observation strings as keys, 20 simulations), one search from each of 10 positions of seeded random
hands (OpenSpiel's ISMCTS draws the hidden cards with an unseeded sampler, so whole games would part);
100 `rl_environment` episodes stepped by `RandomAgent`s; 200 hands of `evaluate_bots` with two
`UniformRandomBot`s. On 2026-12-04 (5 rounds, medians, a loaded two-core machine), pyspiel's time over
ginref's, by round:

| client | pyspiel | ginref | ginref's speed (range) | floor 1x |
|---|---|---|---|---|
| `MCTSBot`, random rollouts | 2.322 s | 3.176 s | 0.75x (0.72-0.80x) | FAIL |
| `ISMCTSBot` | 0.271 s | 0.387 s | 0.70x (0.67-0.73x) | FAIL |
| `rl_environment` | 0.515 s | 0.426 s | 1.21x (1.17-1.22x) | pass |
| `evaluate_bots` | 0.657 s | 0.547 s | 1.21x (1.19-1.24x) | pass |

Where the time goes. A random rollout is a chance draw, a draw and a discard over and over: pyspiel's
C++ plays one action (legal actions, apply, through pybind11) in about 7 µs; ginref in about 10 µs, of
which the table's `legal_moves()` and `push` take about 5.5 µs (1.4 µs and 2.4 µs for a discard) and
the adapter (action ids to moves, OpenSpiel's bookkeeping for the tensor, the player to move) the rest.
What ginref answers faster does not weigh much in a rollout: a clone (3 µs against pyspiel's 17-78 µs,
which copies its observation history), the returns at the end (the two deadwood counts settled, no
ruling built), the chance outcomes, the observation tensor (3 µs against 19 µs: why `rl_environment`,
which reads both players' tensors at every step, is ahead). ISMCTS adds an exact resample each
simulation: the history replayed with the hidden cards redrawn (about 0.2 ms at move 60, pyspiel's
inexact redeal 0.04 ms), and its keys, the observation strings, cost 5 µs against 2 µs. The MCTS and
ISMCTS floors wait on a cheaper `Table.push` and `legal_moves` for the plain moves (draw, take, discard).

## How it is measured

{METHOD}
"""
