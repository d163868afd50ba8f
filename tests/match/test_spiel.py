"""``spiel:`` bots: OpenSpiel's own bots (pyspiel's uniform random bot, the Python MCTS) play
matches through the registered game, ruled clean; the state each is given holds its seat's
cards and draws the cards hidden from it. Skipped without the openspiel extra."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from click.testing import CliRunner  # noqa: E402

from ginref.arena.botproto import seen_move  # noqa: E402
from ginref.arena.match import MatchSpec, run_match  # noqa: E402
from ginref.arena.players import Clock  # noqa: E402
from ginref.arena.spielbot import SpielPlayer  # noqa: E402
from ginref.cards import scan  # noqa: E402
from ginref.cli import cli  # noqa: E402
from ginref.records.openspiel_actions import card_to_openspiel  # noqa: E402
from ginref.referee.table import Table  # noqa: E402
from ginref.rules import find_rules  # noqa: E402

UNIFORM = "spiel:tests.match.spielbots:uniform"
MCTS = "spiel:tests.match.spielbots:small_mcts"
KNOCKER = "spiel:tests.match.spielbots:knocker"


def play(tmp_path: Path, name: str, *bots: str, pairs: int, **options: object) -> tuple[Any, Path]:
    out = tmp_path / name
    summary = run_match(MatchSpec(bots=bots, pairs=pairs, seed=11, **options), str(out))  # type: ignore[arg-type]
    return summary, out


def verified(out: Path) -> str:
    result = CliRunner().invoke(cli, ["verify", str(out / "records.jsonl")])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("opponent", ["greedy", "simple"])
def test_pyspiels_uniform_random_bot_plays_a_match_ruled_clean(tmp_path: Path, opponent: str) -> None:
    summary, out = play(tmp_path, "run", UNIFORM, opponent, pairs=40)
    tally = summary.tallies[0]
    assert tally.failures == {} and sum(tally.games) == 80
    assert "clean            80" in verified(out)
    records = (out / "records.jsonl").read_text()
    assert '"layoffs":[{"card"' in records  # it laid off, and melded its defences:
    assert '"type":"defence","player":"uniform","melds":[[' in records


def test_a_spiel_bots_knocks_are_the_tables_knocks(tmp_path: Path) -> None:
    """A bot that knocks whenever it may: its knock's steps (knock, the discard, each meld,
    pass) are one knock at the table, under rules with Oklahoma's limit and with big gin."""
    for rules in ("standard", "oklahoma", "hoyle"):
        summary, out = play(tmp_path, rules, KNOCKER, "simple", pairs=30, rules=rules)
        assert summary.tallies[0].failures == {}
        assert "clean            60" in verified(out)
        knocks = re.findall(r'"player":"knocker","source":"[a-z]+","card":"[0-9A-Z]+","knock"',
                            (out / "records.jsonl").read_text())
        assert len(knocks) >= 5


def test_openspiels_mcts_plays_a_short_match_in_two_workers(tmp_path: Path) -> None:
    summary, out = play(tmp_path, "run", MCTS, "simple", pairs=3, concurrency=2)
    assert summary.tallies[0].failures == {} and sum(summary.tallies[0].games) == 6
    assert "clean            6" in verified(out)
    _, serial = play(tmp_path, "serial", MCTS, "simple", pairs=3)
    assert (serial / "records.jsonl").read_bytes() == (out / "records.jsonl").read_bytes()


def test_a_spiel_bot_that_cannot_be_made_or_rules_it_cannot_play_are_usage_errors() -> None:
    for args, words in (([UNIFORM + "x", "greedy"], "has no callable"),
                        (["spiel:nosuchmodule:bot", "greedy"], "cannot import"),
                        ([UNIFORM, "greedy", "--rules", "rlcard"], "cannot play"),
                        ([UNIFORM, "greedy", "--set", "big_gin_bonus=31"], "parameters only")):
        result = CliRunner().invoke(cli, ["match", *args])
        assert result.exit_code == 2, result.output
        assert words in result.output


def held(state: Any, player: int) -> set[int]:
    """The hand of ``player`` in ``state`` (OpenSpiel's card ids), from its observation tensor."""
    tensor = state.observation_tensor(player)
    return {i for i, x in enumerate(tensor[2 + 52 * player:54 + 52 * player]) if x}


def test_the_state_holds_the_seats_cards_and_draws_the_hidden_ones() -> None:
    """Hands played at a real table, the spiel player seated as "a" (non-dealer and dealer in
    turn) against random moves: at each of its turns the state its bot is given holds the
    seat's own hand and is at the seat's turn; the opponent's hand in it is drawn from the
    cards the seat has not seen, so that it is the true hand only by chance."""
    given: list[Any] = []

    def spy(game: Any, player: int, seed: int) -> Any:
        inner = pyspiel.make_uniform_random_bot(player, seed)

        class Spy:
            def step(self, state: Any) -> int:
                given.append(state.clone())
                return int(inner.step(state))
        return Spy()

    rules = find_rules("standard")
    turns = same_hand = 0
    own_seen = hidden_total = hidden_same = 0
    for seed in range(40):
        dealer = "b" if seed % 2 == 0 else "a"
        table = Table(("a", "b"), rules, dealer=dealer, seed=seed)
        player = SpielPlayer("a", spy)
        player.new_game(("a", "b"), "a", seed, rules)
        player.told({"type": "new_hand", "hand": 1, "dealer": dealer})
        me = 1 if dealer == "a" else 0
        rng = random.Random(seed)
        while not table.is_over():
            if table.to_move == "b":
                played = table.push_as_seat(rng.choice(table.legal_moves()), "b")
                player.told({"type": "opponent", "player": "b", "move": seen_move(played)})
                continue
            view = table.view("a")
            before = len(given)
            answer = player.act(view, table.legal_moves(), Clock())
            state = given[before]
            assert state.current_player() == me
            assert held(state, me) == {card_to_openspiel(c) for c in scan(view.hand.mask)}
            own_seen += 1
            theirs = held(state, 1 - me)
            truth = {card_to_openspiel(c) for c in scan(table.view("b").hand.mask & ~view.opponent_took.mask)}
            theirs -= {card_to_openspiel(c) for c in scan(view.opponent_took.mask)}
            turns += 1
            same_hand += theirs == truth
            hidden_total += len(truth)
            hidden_same += len(theirs & truth)
            table.push_as_seat(answer.move, "a")
    assert turns > 200 and own_seen == turns
    assert same_hand / turns < 0.05  # the opponent's unseen hand is drawn, not copied
    assert hidden_same / hidden_total < 0.5
