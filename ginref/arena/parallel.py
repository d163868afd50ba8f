"""Pairs played in worker processes (``--concurrency N``), answered in pair order.

Each worker keeps its own players (a subprocess bot is started once per worker, not once
per pair) and plays the pairs it is given; the pool hands the results back in the order of
the schedule, so a run's folder is the same whatever the concurrency.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence

from ginref.arena.match import MatchSpec, PairResult, play_pair
from ginref.arena.players import Player, PlayerSpec, start_player

_WORKER: dict[str, object] = {}


def _setup(spec: MatchSpec, specs: Sequence[PlayerSpec], labels: Sequence[str], stderr: str | None) -> None:
    _WORKER.update(spec=spec, specs=specs, labels=labels, stderr=stderr, players={})


def _play(item: tuple[int, tuple[int, int]]) -> PairResult:
    spec: MatchSpec = _WORKER["spec"]  # type: ignore[assignment]
    specs: Sequence[PlayerSpec] = _WORKER["specs"]  # type: ignore[assignment]
    labels: Sequence[str] = _WORKER["labels"]  # type: ignore[assignment]
    stderr: str | None = _WORKER["stderr"]  # type: ignore[assignment]
    players: dict[str, Player] = _WORKER["players"]  # type: ignore[assignment]
    index, pairing = item
    for i in pairing:
        if labels[i] not in players:
            path = None if stderr is None else os.path.join(stderr, f"{labels[i]}.{os.getpid()}.log")
            players[labels[i]] = start_player(labels[i], specs[i], path, spec)
    return play_pair(spec, index, pairing, labels, players)


def parallel_pairs(spec: MatchSpec, specs: Sequence[PlayerSpec], labels: Sequence[str],
                   work: Sequence[tuple[int, tuple[int, int]]], stderr: str | None) -> Iterator[PairResult]:
    """Play ``work`` in ``spec.concurrency`` processes; yield the pairs in schedule order."""
    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    pool = context.Pool(spec.concurrency, initializer=_setup, initargs=(spec, specs, labels, stderr))
    try:
        yield from pool.imap(_play, work, chunksize=1)
    finally:
        pool.terminate()
        pool.join()
