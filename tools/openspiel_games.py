"""Play OpenSpiel gin_rummy hands, write them as ginref records and verify them.

Runs only where ``pyspiel`` is installed (the benchmark peers venv)::

    benchmarks/.peers/venv/bin/python tools/openspiel_games.py --games 2000 --policy mixed \\
        --out /tmp/games.jsonl
    benchmarks/.peers/venv/bin/python tools/openspiel_games.py --games 500 --oklahoma

Each game is one hand of ``pyspiel.load_game("gin_rummy")`` played by seeded policies
(uniform random over ``state.legal_actions()``, a greedy knocker, or a mix), converted
from its action history into a :class:`ginref.records.GameRecord` under the ``openspiel``
rules (``oklahoma = gin_only`` when OpenSpiel's ``oklahoma`` parameter is on) and
adjudicated. A game passes when the referee finds no error and its ruling (outcome,
winner, points) equals what ``state.returns()`` says.

How OpenSpiel's history maps onto a record:

* players ``P0`` and ``P1``; OpenSpiel always starts with player 0, the non-dealer,
  so ``P1`` deals;
* the first 10 chance outcomes are P0's cards, the next 10 P1's, the 21st the upcard;
* every later chance outcome is the card of a stock draw (OpenSpiel deals stock cards
  as chance events when they are drawn), so the stock is those cards in draw order,
  followed by the cards never drawn in ginref card order (their order was never fixed);
* first-turn passes, draws (52 take the discard, 53 the stock) and discards are turns;
  a knock (55) is followed by the face-down discard, the melds declared (56+) in order
  and a pass; the defender's layoffs come first (single cards, each assigned to the
  knocker meld it extends at that moment, chains included), then a pass, then the
  defender's own melds and a last pass;
* at the wall (a discard left 2 cards in the stock) 55 takes the discard to knock and
  54 passes, ending the hand as a draw;
* the 50th take of the discard pile after the first turn ends the hand at once: it is
  written as a turn with the take and no discard;
* the claimed result comes from ``state.returns()``: a hand nobody knocked is ``void``,
  a knock scoring 0 is a ``tie``; running totals give the winner its points.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from ginref.cards import Card, Mask, card_name, mask_of
from ginref.records import (
    ClaimedOutcome,
    ClaimedResult,
    Defence,
    Event,
    GameRecord,
    HandRecord,
    Knock,
    Pass,
    Source,
    Turn,
    write_records,
)
from ginref.referee import Verdict, adjudicate

GR = pyspiel.gin_rummy
PLAYERS = ("P0", "P1")
DEALER = "P1"
DRAW_UPCARD = 52
DRAW_STOCK = 53
PASS = 54
KNOCK = 55
MELD_BASE = 56
HAND_SIZE = 10
GIN_BONUS = 25
UTILS = GR.GinRummyUtils(13, 4, 10)

# OpenSpiel suits s c d h (0..3); ginref suits C D H S (0..3)
_SUIT_TO_GINREF = (3, 0, 1, 2)


def to_ginref(os_card: int) -> Card:
    """An OpenSpiel card (``suit * 13 + rank``, suits s c d h) as a ginref card."""
    return _SUIT_TO_GINREF[os_card // 13] * 13 + os_card % 13


def meld_mask(meld_id: int) -> Mask:
    """The cards of OpenSpiel meld ``meld_id`` (0..184) as a ginref mask."""
    return mask_of(to_ginref(c) for c in UTILS.int_to_meld[meld_id])


class ConversionError(Exception):
    """An OpenSpiel history the converter cannot express as a record."""


# -- layoffs ---------------------------------------------------------------------------------


def _fits(meld: Mask, c: Card) -> bool:
    """Does card ``c`` extend ``meld`` (a set of 3, or a run at either end) as it stands?"""
    cards = [x for x in range(52) if meld >> x & 1]
    if meld >> c & 1:
        return False
    ranks = {x % 13 for x in cards}
    if len(ranks) == 1:  # a set: the fourth card of its rank
        return len(cards) == 3 and c % 13 == cards[0] % 13
    suit = cards[0] // 13
    below = c == cards[0] - 1 and c % 13 != 12
    above = c == cards[-1] + 1 and c % 13 != 0
    return c // 13 == suit and (below or above)


def assign_layoffs(melds: Sequence[Mask], cards: Sequence[Card]) -> list[int]:
    """For each laid-off card in order, the index of the knocker meld it extends.

    A card may fit two melds (8H onto 8C 8D 8S or onto 5H 6H 7H); a depth-first search
    picks, card by card, a meld that leaves every later card a place (a chain 8H 9H
    needs 8H on the run).
    """
    current = list(melds)

    def walk(i: int) -> list[int] | None:
        if i == len(cards):
            return []
        c = cards[i]
        for index, meld in enumerate(current):
            if _fits(meld, c):
                current[index] = meld | 1 << c
                rest = walk(i + 1)
                current[index] = meld
                if rest is not None:
                    return [index, *rest]
        return None

    found = walk(0)
    if found is None:
        names = " ".join(card_name(c) for c in cards)
        raise ConversionError(f"no assignment of the layoffs {names} to the knocker's melds")
    return found


# -- conversion ------------------------------------------------------------------------------


@dataclass
class _Draft:
    """A turn being built: the draw, then a discard or a knock."""

    player: str
    source: Source
    card: Card | None = None
    melds: list[Mask] = field(default_factory=list)
    knock_discard: Card | None = None


def expected_result(
    returns: Sequence[float], knocked: Sequence[bool], deadwood: Sequence[int]
) -> ClaimedResult:
    """What ``state.returns()`` says, as a claimed result (``deadwood`` is the final deadwood)."""
    if not any(knocked):
        return ClaimedResult("void")
    k = 0 if knocked[0] else 1
    gain = round(returns[k])
    if gain == 0:
        return ClaimedResult("tie")
    if gain > 0:
        outcome: ClaimedOutcome = "gin" if deadwood[k] == 0 else "knock"
        return ClaimedResult(outcome, PLAYERS[k], gain)
    return ClaimedResult("undercut", PLAYERS[1 - k], -gain)


def convert(game: Any, history: Sequence[int], *, tags: tuple[tuple[str, str], ...] = ()) -> GameRecord:
    """The record of one OpenSpiel gin_rummy hand, from its full action history."""
    state = game.new_initial_state()
    deal: tuple[list[Card], list[Card]] = ([], [])
    upcard: Card | None = None
    drawn: list[Card] = []
    events: list[Event] = []
    draft: _Draft | None = None
    knocker = -1
    layoffs: list[Card] = []
    defender_melds: list[Mask] = []
    for action in history:
        phase = state.current_phase()
        p = state.current_player()
        name = PLAYERS[p] if p in (0, 1) else ""
        if phase == GR.Phase.DEAL:
            c = to_ginref(action)
            if len(deal[0]) < HAND_SIZE:
                deal[0].append(c)
            elif len(deal[1]) < HAND_SIZE:
                deal[1].append(c)
            elif upcard is None:
                upcard = c
            else:
                if draft is None or draft.source != "stock":
                    raise ConversionError("a stock card dealt with no stock draw")
                draft.card = c
                drawn.append(c)
        elif phase in (GR.Phase.FIRST_UPCARD, GR.Phase.DRAW):
            if action == PASS:
                events.append(Pass(name))
            elif action == DRAW_UPCARD:
                top = state.upcard()
                draft = _Draft(name, "discard", to_ginref(top))
            elif action == DRAW_STOCK:
                draft = _Draft(name, "stock")
            else:
                raise ConversionError(f"action {action} in the draw phase")
        elif phase == GR.Phase.WALL:
            if action == PASS:
                events.append(Pass(name))
            elif action == KNOCK:
                draft = _Draft(name, "discard", to_ginref(state.upcard()))
                knocker = p
            else:
                raise ConversionError(f"action {action} at the wall")
        elif phase == GR.Phase.DISCARD:
            if draft is None:
                raise ConversionError("a discard with no draw")
            if action == KNOCK:
                knocker = p
            else:
                events.append(Turn(draft.player, draft.source, draft.card, discard=to_ginref(action)))
                draft = None
        elif phase == GR.Phase.KNOCK:
            if draft is None:
                raise ConversionError("a knock with no draw")
            if draft.knock_discard is None and action < 52:
                draft.knock_discard = to_ginref(action)
            elif action >= MELD_BASE:
                draft.melds.append(meld_mask(action - MELD_BASE))
            elif action == PASS:
                state.apply_action(action)
                dw = state.deadwood()[p]
                knock = Knock("gin" if dw == 0 else "knock", draft.knock_discard, tuple(draft.melds), dw)
                events.append(Turn(draft.player, draft.source, draft.card, knock=knock))
                draft = None
                continue
            else:
                raise ConversionError(f"action {action} in the knock phase")
        elif phase == GR.Phase.LAYOFF:
            if action < 52:
                layoffs.append(to_ginref(action))
            elif action >= MELD_BASE:
                defender_melds.append(meld_mask(action - MELD_BASE))
            elif action != PASS:
                raise ConversionError(f"action {action} in the layoff phase")
        else:
            raise ConversionError(f"action {action} in phase {phase}")
        state.apply_action(action)
    if not state.is_terminal():
        raise ConversionError("the history stops before the end of the hand")
    if draft is not None:
        # the hand ended on a take of the discard pile (OpenSpiel's 50th): no discard
        if knocker >= 0 or draft.source != "discard":
            raise ConversionError("the hand ends in the middle of a turn")
        events.append(Turn(draft.player, draft.source, draft.card))
    deadwood = state.deadwood()
    knocked = state.knocked()
    if knocker >= 0:
        turn = events[-1]
        assert isinstance(turn, Turn) and turn.knock is not None
        onto = assign_layoffs(turn.knock.melds, layoffs)
        events.append(Defence(
            PLAYERS[1 - knocker], tuple(defender_melds), tuple(zip(layoffs, onto, strict=True)),
            deadwood[1 - knocker],
        ))
    result = expected_result(state.returns(), knocked, deadwood)
    dealt = mask_of(deal[0]) | mask_of(deal[1]) | (1 << upcard if upcard is not None else 0)
    undrawn = [c for c in range(52) if not (dealt | mask_of(drawn)) >> c & 1]
    score = tuple((n, result.points if n == result.winner else 0) for n in PLAYERS)
    return GameRecord(
        players=PLAYERS,
        hands=(HandRecord(
            dealer=DEALER,
            deal=((PLAYERS[0], tuple(deal[0])), (PLAYERS[1], tuple(deal[1]))),
            upcard=upcard,
            events=tuple(events),
            stock=(*drawn, *undrawn),
            result=result,
            score_after=score,
            number=1,
        ),),
        rules="openspiel",
        overrides=overrides_for(game.get_parameters()),
        tags=tags,
    )


def overrides_for(params: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The ginref rule overrides (on ``openspiel``) that match OpenSpiel game parameters."""
    if (params["num_ranks"], params["num_suits"], params["hand_size"]) != (13, 4, HAND_SIZE):
        raise ConversionError("ginref plays with 52 cards and 10-card hands only")
    if params["oklahoma"] and params["knock_card"] != 10:
        # OpenSpiel's Oklahoma knock card is the upcard's value, whatever knock_card says
        raise ConversionError("OpenSpiel ignores knock_card under Oklahoma; ginref caps the limit by it")
    knobs = (
        ("gin_bonus", params["gin_bonus"], GIN_BONUS),
        ("knock_limit", params["knock_card"], 10),
        ("oklahoma", "gin_only" if params["oklahoma"] else "off", "off"),
        ("undercut_bonus", params["undercut_bonus"], 25),
    )
    return tuple((knob, str(value)) for knob, value, default in knobs if value != default)


# -- policies --------------------------------------------------------------------------------

Policy = Callable[[Any, random.Random], int]


def random_policy(state: Any, rng: random.Random) -> int:
    """Uniform over the legal actions."""
    return int(rng.choice(state.legal_actions()))


def _least(cards: Sequence[int], rng: random.Random, key: Callable[[int], int]) -> int:
    best = min(key(c) for c in cards)
    return rng.choice([c for c in cards if key(c) == best])


def _without(hand: Sequence[int], c: int) -> list[int]:
    return [x for x in hand if x != c]


def greedy_policy(epsilon: float = 0.0, stop_early: float = 0.0, wall: bool = False) -> Policy:
    """Knock whenever legal, take the discard when it lowers the deadwood, throw the card
    that leaves the least deadwood, lay off whatever helps and meld the best arrangement.
    With probability ``epsilon`` a move is uniformly random; a knocker stops declaring
    melds as soon as it may with probability ``stop_early``. With ``wall`` the player
    knocks only at the wall (or with gin in hand), so hands reach the wall."""

    def play(state: Any, rng: random.Random) -> int:
        legal: list[int] = state.legal_actions()
        if rng.random() < epsilon:
            return int(rng.choice(legal))
        p = state.current_player()
        hand: list[int] = state.hands()[p]
        phase = state.current_phase()
        if phase in (GR.Phase.FIRST_UPCARD, GR.Phase.DRAW):
            better = DRAW_UPCARD in legal and (
                UTILS.min_deadwood([*hand, state.upcard()]) < UTILS.min_deadwood(hand)
            )
            if better:
                return DRAW_UPCARD
            return DRAW_STOCK if DRAW_STOCK in legal else PASS
        if phase in (GR.Phase.DISCARD, GR.Phase.WALL):
            if KNOCK in legal and (not wall or phase == GR.Phase.WALL or state.deadwood()[p] == 0):
                return KNOCK
            if phase == GR.Phase.WALL:
                return PASS
            cards = [c for c in legal if c < 52]
            return _least(cards, rng, lambda c: UTILS.min_deadwood(_without(hand, c)))
        if phase == GR.Phase.KNOCK:
            if len(hand) == HAND_SIZE + 1:
                return _least(legal, rng, lambda c: UTILS.min_deadwood(_without(hand, c)))
            if PASS in legal and rng.random() < stop_early:
                return PASS
        if phase == GR.Phase.LAYOFF and not state.finished_layoffs():
            now = UTILS.min_deadwood(hand)
            cards = [c for c in legal if c < 52 and UTILS.min_deadwood(_without(hand, c)) < now]
            return rng.choice(cards) if cards else PASS
        if phase in (GR.Phase.KNOCK, GR.Phase.LAYOFF):
            best = {UTILS.meld_to_int(m) + MELD_BASE for m in UTILS.best_meld_group(hand)}
            melds = [a for a in legal if a in best]
            if melds:
                return melds[0]
            return PASS if PASS in legal else int(rng.choice(legal))
        return int(rng.choice(legal))

    return play


def hoarder_policy(take: float = 0.8, rethrow: float = 0.3) -> Policy:
    """Random play that takes the discard with probability ``take`` and throws the card
    just taken with probability ``rethrow``: it reaches OpenSpiel's 50th take of the
    discard pile and its repeated-discard draw."""

    def play(state: Any, rng: random.Random) -> int:
        legal: list[int] = state.legal_actions()
        phase = state.current_phase()
        if phase == GR.Phase.DRAW:
            return DRAW_UPCARD if rng.random() < take else DRAW_STOCK
        if phase == GR.Phase.DISCARD:
            prev = state.prev_upcard()
            if prev is not None and prev in legal and rng.random() < rethrow:
                return int(prev)
        return int(rng.choice(legal))

    return play


POLICIES = ["random", "greedy", "greedy-random", "hoarder", "greedy-hoarder", "wall"]


def pick_policies(kind: str, rng: random.Random) -> tuple[Policy, Policy, str]:
    """The two players' policies for one game, and a label."""
    if kind == "mixed":
        kind = rng.choices(POLICIES, weights=[2, 5, 1, 1, 1, 1])[0]
    eps = rng.choice([0.0, 0.05, 0.15])
    stop = rng.choice([0.0, 0.0, 0.3])
    greedy = greedy_policy(eps, stop)
    table: dict[str, tuple[Policy, Policy]] = {
        "random": (random_policy, random_policy),
        "greedy": (greedy, greedy),
        "greedy-random": (greedy, random_policy) if rng.random() < 0.5 else (random_policy, greedy),
        "hoarder": (hoarder_policy(), hoarder_policy()),
        "greedy-hoarder": (greedy, hoarder_policy()) if rng.random() < 0.5 else (hoarder_policy(), greedy),
        "wall": (greedy_policy(eps, stop, wall=True), greedy_policy(eps, stop, wall=True)),
    }
    if kind not in table:
        raise ValueError(f"unknown policy {kind!r}")
    first, second = table[kind]
    return first, second, kind


def play(game: Any, rng: random.Random, policies: tuple[Policy, Policy]) -> Any:
    """Play one hand to the end; return the terminal state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(policies[state.current_player()](state, rng))
    return state


# -- checking --------------------------------------------------------------------------------


@dataclass
class Checked:
    """One converted game and what the referee said."""

    record: GameRecord
    verdict: Verdict
    category: str
    problems: list[str]


def category(record: GameRecord, verdict: Verdict) -> str:
    """The kind of ending: ``knock``, ``gin``, ``undercut``, ``tie`` (``wall-`` when the knock
    took the last discard at the wall), ``void-wall``, ``void-max_discard_draws``, ..."""
    ruled = verdict.hands[0]
    if ruled.outcome == "void":
        return f"void-{ruled.end}"
    knock_turn = next(e for e in record.hands[0].events if isinstance(e, Turn) and e.knock is not None)
    wall = ruled.stock_left == 2 and knock_turn.source == "discard"
    return ("wall-" if wall else "") + ruled.outcome


def openspiel_end(state: Any) -> str:
    """How an OpenSpiel hand ended, in the words of :attr:`HandVerdict.end`, from its last action."""
    if any(state.knocked()):
        return "knock"
    last = state.history()[-1]
    if last == PASS:
        return "wall"
    if last == DRAW_UPCARD:
        return "max_discard_draws"
    return "repeat_discard_draw"


def check(game: Any, state: Any, tags: tuple[tuple[str, str], ...] = ()) -> Checked:
    """Convert a finished game and adjudicate it; ``problems`` lists every disagreement."""
    record = convert(game, state.history(), tags=tags)
    verdict = adjudicate(record)
    problems = [str(f) for f in verdict.errors]
    want = expected_result(state.returns(), state.knocked(), state.deadwood())
    if not verdict.hands:
        return Checked(record, verdict, "unruled", [*problems, "the referee ruled on no hand"])
    ruled = verdict.hands[0]
    got = (ruled.outcome, ruled.winner, ruled.points)
    if got != (want.outcome, want.winner, want.points):
        problems.append(f"ginref rules {got}, OpenSpiel's returns {state.returns()} say "
                        f"{(want.outcome, want.winner, want.points)}")
    if ruled.end != openspiel_end(state):
        problems.append(f"ginref says the hand ended by {ruled.end!r}, OpenSpiel by {openspiel_end(state)!r}")
    if ruled.stock_left != state.stock_size():
        problems.append(f"ginref leaves {ruled.stock_left} in the stock, OpenSpiel {state.stock_size()}")
    if ruled.outcome != "void" and ruled.knocker is not None:
        k = PLAYERS.index(ruled.knocker)
        dws = (ruled.knocker_deadwood, ruled.defender_deadwood)
        if dws != (state.deadwood()[k], state.deadwood()[1 - k]):
            problems.append(f"ginref deadwood knocker/defender {dws}, OpenSpiel {state.deadwood()}")
    return Checked(record, verdict, category(record, verdict), problems)


def run(
    games: int, seed: int, policy: str, oklahoma: float, params: dict[str, int] | None = None
) -> Iterator[tuple[int, Checked]]:
    """Play and check ``games`` seeded games, a share ``oklahoma`` of them with OpenSpiel's
    ``oklahoma=true`` (``params``: more game parameters); game ``i`` uses
    ``random.Random(f"{seed}:{i}")``."""
    plain = pyspiel.load_game("gin_rummy", {**(params or {}), "oklahoma": False})
    okla = pyspiel.load_game("gin_rummy", {**(params or {}), "oklahoma": True})
    for i in range(games):
        rng = random.Random(f"{seed}:{i}")
        game = okla if rng.random() < oklahoma else plain
        first, second, label = pick_policies(policy, rng)
        state = play(game, rng, (first, second))
        given = {**(params or {}), **({"oklahoma": True} if game is okla else {})}
        text = ",".join(f"{k}={str(v).lower()}" for k, v in given.items())
        tags = (("Event", f"OpenSpiel gin_rummy{f'({text})' if text else ''} seed {seed} game {i}"),
                ("Policy", label))
        try:
            yield i, check(game, state, tags)
        except ConversionError as exc:
            raise ConversionError(f"game {i}: {exc}; history {state.history()}") from exc


def choose_sample(
    checked: Sequence[tuple[int, Checked]], size: int, rng: random.Random
) -> list[tuple[int, Checked]]:
    """About ``size`` games without any finding (advisories neither), spread over the
    categories (rare ones kept whole), in game order."""
    by_kind: dict[str, list[tuple[int, Checked]]] = collections.defaultdict(list)
    for i, item in checked:
        if not item.problems and not item.verdict.findings:
            by_kind[item.category].append((i, item))
    chosen: list[tuple[int, Checked]] = []
    kinds = sorted(by_kind, key=lambda k: len(by_kind[k]))
    for n, kind in enumerate(kinds):
        share = (size - len(chosen)) // (len(kinds) - n)
        pool = by_kind[kind]
        chosen.extend(rng.sample(pool, min(share, len(pool))))
    return sorted(chosen, key=lambda pair: pair[0])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="mixed", choices=[*POLICIES, "mixed"])
    parser.add_argument("--oklahoma", type=float, default=0.0, metavar="SHARE",
                        help="the share of games played with OpenSpiel's oklahoma=true (0 to 1)")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=INT",
                        help="an OpenSpiel game parameter: knock_card, gin_bonus, undercut_bonus")
    parser.add_argument("--out", type=Path, help="write every game here (JSON Lines)")
    parser.add_argument("--sample", type=Path,
                        help="write a varied selection of games without findings here (JSON Lines)")
    parser.add_argument("--sample-size", type=int, default=200)
    args = parser.parse_args(argv)
    checked: list[tuple[int, Checked]] = []
    kinds: collections.Counter[str] = collections.Counter()
    advisories: collections.Counter[str] = collections.Counter()
    bad = 0
    params = {name: int(value) for name, _, value in (p.partition("=") for p in args.param)}
    for i, item in run(args.games, args.seed, args.policy, args.oklahoma, params):
        checked.append((i, item))
        kinds[item.category] += 1
        advisories.update(f.code for f in item.verdict.findings if f.severity == "advisory")
        if item.problems:
            bad += 1
            if bad <= 20:
                print(f"game {i} ({item.category}):", *item.problems, sep="\n  ", file=sys.stderr)
    if args.out:
        with args.out.open("w", encoding="utf-8") as stream:
            list(write_records((c.record for _, c in checked), stream, "jsonl"))
    if args.sample:
        sample = choose_sample(checked, args.sample_size, random.Random(args.seed))
        with args.sample.open("w", encoding="utf-8") as stream:
            list(write_records((c.record for _, c in sample), stream, "jsonl"))
        mix = collections.Counter(c.category for _, c in sample)
        print(f"sample: {len(sample)} games -> {args.sample}: {json.dumps(dict(mix.most_common()))}")
    print(f"{len(checked)} games (oklahoma={args.oklahoma}, policy={args.policy}, seed={args.seed}, "
          f"params={params}): {bad} with disagreements")
    print("outcomes:", json.dumps(dict(kinds.most_common())))
    print("advisories:", json.dumps(dict(advisories.most_common())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
