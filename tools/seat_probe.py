"""Probe the trust boundary of ``ginref table`` from outside: no answer to a seat may tell it a hidden card.

    python tools/seat_probe.py --games 200 --seed 1
    python tools/seat_probe.py --games 20 --command "node my_referee.js"

A client that knows nothing of ginref but its line protocol (docs/live.md): it starts the
referee as a real process, plays seeded games as the operator and two seats, and at every
step sends, from the seat to move and from the seat waiting, requests a cheating or broken
client could send: moves naming cards it cannot see (the opponent's, the stock's next card),
melds of the opponent's cards, random and wrong-case words, garbage JSON values, the other
seat's view or the record, ``new``/``next_hand``/``pop`` with a ``player``, an unseated
player, lines that are not JSON. The game goes on by one legal move of the seat to move.

What a seat may know is tracked as a seat learns it: every card its views ever showed (hand,
pile, upcard, ``taken``, ``opponent_took``, the knock's melds and layoffs) and the cards its own
moves were answered with (a draw names the card drawn). The operator sees everything: its
``record`` and views say which cards are hidden from a seat (the opponent's hand and the stock,
less what the seat saw). Every answer a seat receives is scanned:

- ``hidden_card``: it names a hidden card the request did not name (a message may quote the
  request's words back; an example after "e.g." is the same in every hand);
- ``placement``: it says where a hidden card is ("Ann's hand", "in the stock", "next stock
  card") about a card the request or the answer names;
- ``view``: the seat's own view differs from the operator's view of that seat, or shows a stock
  card or a card of the opponent's hand the seat never saw;
- ``seat_op``: ``new``, ``next_hand`` or ``pop`` from a seat was accepted; ``other_seat``: a seat
  got the other seat's view, or the record before the hand was over; ``unseated``: a request
  naming a player not at the table was accepted;
- ``changed``: refused requests changed the table (the operator's record, views and legal moves
  compared before and after);
- ``crash``: the referee stopped, did not answer within the timeout, or said "internal error";
  ``bad_answer``: an answer that is not one JSON object with ``ok``;
- ``twin``: the answer depends on a hidden card. Once a hand is over, it is dealt again in a
  second process from a deck that differs only in cards that stayed hidden from the seat for
  the whole hand (permuted among their places: the opponent's unseen cards and the stock
  below what was drawn; never a card the opponent's moves named, but for the card a draw
  was answered with, nor, when the opponent knocked, its hand at the knock, so that every
  move stays legal), and the same moves are played. Each request of that seat, until the
  hand is over, must be answered byte for byte the same (but its ``id``).

Two inputs that once stopped the session run first, each in a fresh process: a line of 988
nested brackets (and 5,000 nested objects), and a player name over 80 characters played to the
end of a hand.

Prints a summary line (games, hands, requests, refusals, leaks by kind) and the first leaks;
the exit status is 1 when there is any, else 0. Uses the standard library only.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import json
import queue
import random
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"
CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS)
RULE_SETS = ("standard", "openspiel", "rlcard", "oklahoma", "cardhearth", "hollywood", "hoyle", "eaai",
             "round_the_corner", "straight")
KINDS = ("hidden_card", "placement", "view", "twin", "seat_op", "other_seat", "unseated", "changed",
         "crash", "bad_answer")
PAIRS = (("Ann", "Bo"), ("North", "South"), ("Émile", "Zoë"), ("p1", "p2"))
CARD_IN_ANSWER = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][CDHS])(?![A-Za-z0-9])")
LETTER_CARD = re.compile(r"(10|[2-9TJQKA])([CDHS])", re.IGNORECASE)
SYMBOL_AFTER = re.compile(r"(10|[2-9TJQKA])\s*([♣♦♥♠♧♢♡♤])", re.IGNORECASE)
SYMBOL_BEFORE = re.compile(r"([♣♦♥♠♧♢♡♤])\s*(10|[2-9TJQKA])", re.IGNORECASE)
EXAMPLE = re.compile(r'e\.g\. *(?:"[^"]*"|\S+)')
"""an example in a message (``e.g. "discard 7H"``): the same for every hand, so not a leak"""
STOCK_PHRASES = re.compile(r"(?<!cards )(?<!card )(?<!left )in the stock|next stock card|top of the stock"
                           r"|stock's (?:top|next)|stock top", re.IGNORECASE)
"""where a card is in the stock (not how many are: "two cards left in the stock" places none)"""
ENDINGS = ("knock", "gin", "big_gin")
MAX_STEPS = 600
"""moves per hand before the probe gives up on it (a hand of gin has far fewer)"""

Request = dict[str, Any]


# -- the referee process ---------------------------------------------------------------------------


class Referee:
    """One referee process answering line by line. :meth:`send` gives the answer line, or None
    when the process exited or did not answer within ``timeout`` seconds (it is then stopped)."""

    def __init__(self, command: list[str], timeout: float) -> None:
        self.command = command
        self.timeout = timeout
        self.sent = 0
        self._start()

    def _start(self) -> None:
        self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.errors: collections.deque[bytes] = collections.deque(maxlen=5)
        threading.Thread(target=_pump, args=(self.process.stdout, self.lines), daemon=True).start()
        threading.Thread(target=_drain, args=(self.process.stderr, self.errors), daemon=True).start()

    def send(self, line: bytes) -> str | None:
        self.sent += 1
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(line + b"\n")
            stdin.flush()
            answer = self.lines.get(timeout=self.timeout)
        except (OSError, queue.Empty):
            answer = None
        if answer is None:
            self._stop()
            return None
        return answer.decode("utf-8", "replace").rstrip("\r\n")

    def ask(self, request: Request) -> Request:
        """An operator's request that must be answered ``ok`` (else :class:`Lost`)."""
        answer = _decoded(self.send(_line(request)))
        if answer is None or answer.get("ok") is not True:
            raise Lost(f"{_line(request).decode()[:120]} answered {answer}")
        return answer

    def death(self) -> str:
        """How the process ended: its exit status and the last line it wrote to stderr."""
        status = self.process.poll()
        said = b"".join(self.errors).decode("utf-8", "replace").strip().splitlines()
        how = f"exit {status}" if status is not None else "no answer"
        return how + (f": {said[-1][:160]}" if said else "")

    def restart(self) -> None:
        self._stop()
        self._start()

    def _stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()

    def close(self) -> int | None:
        """End the input and wait for the process; its exit status (None: it had to be killed)."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            return self.process.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self._stop()
            return None


class Lost(Exception):
    """The operator's view of the game is lost (the process stopped, or refused a legal move)."""


def _pump(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _drain(stream: IO[bytes], tail: collections.deque[bytes]) -> None:
    for line in stream:
        tail.append(line[:400])


def _line(request: Request | bytes) -> bytes:
    if isinstance(request, bytes):
        return request
    return json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode()


def _decoded(text: str | None) -> Request | None:
    if text is None:
        return None
    try:
        answer = json.loads(text)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) and isinstance(answer.get("ok"), bool) else None


def _request(line: bytes) -> Request | None:
    try:
        request = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return request if isinstance(request, dict) else None


def _without_id(text: str) -> str:
    answer = _decoded(text)
    if answer is None:
        return text
    answer.pop("id", None)
    return json.dumps(answer, ensure_ascii=False)


# -- the game as the operator sees it --------------------------------------------------------------


@dataclass
class Truth:
    """Everything at the table, as the operator's requests show it."""

    record: Request
    views: dict[str, Request]
    legal: list[str]

    @property
    def hand(self) -> Request:
        hands: list[Request] = self.record["hands"]
        return hands[-1]

    @property
    def over(self) -> bool:
        return bool(next(iter(self.views.values()))["phase"] == "over")

    @property
    def to_move(self) -> str | None:
        mover: str | None = next(iter(self.views.values()))["to_move"]
        return mover

    def stock(self) -> list[str]:
        """The stock's cards from the top (empty when the referee does not say)."""
        stock: list[str] = self.hand.get("stock") or []
        left: int = next(iter(self.views.values()))["stock"]
        return stock[len(stock) - left:] if left else []

    def hidden(self, seat: str, seen: set[str]) -> set[str]:
        """The cards ``seat`` cannot know now: the opponent's hand and the stock, less what it saw."""
        if self.over:
            return set()
        other = next(p for p in self.views if p != seat)
        return (set(self.views[other]["hand"]) | set(self.stock())) - seen

    def key(self) -> str:
        return json.dumps([self.record, self.views, self.legal], sort_keys=True)


def truth_of(referee: Referee, players: tuple[str, str]) -> Truth:
    record = referee.ask({"op": "record"})["record"]
    views = {p: referee.ask({"op": "view", "seat": p})["view"] for p in players}
    return Truth(record, views, referee.ask({"op": "legal"})["moves"])


def view_cards(view: Request) -> set[str]:
    """Every card a view shows."""
    cards = set(view.get("hand", [])) | set(view.get("pile", [])) | set(view.get("opponent_took", []))
    cards |= {c for c in (view.get("upcard"), view.get("taken")) if isinstance(c, str)}
    for meld in view.get("melds", []):
        cards |= set(meld)
    cards |= {lay["card"] for lay in view.get("layoffs", []) if isinstance(lay, dict)}
    return cards & set(CARDS)


@dataclass
class Entry:
    """One request of a hand, as sent, for the twin: ``seat`` None for the operator's."""

    line: bytes
    seat: str | None
    answer: str
    moved: bool
    over: bool
    redealt: bool = False
    """a seat's request the table accepted and the probe undid by dealing again (the twin skips it)"""


@dataclass
class Hand:
    deck: list[str]
    moves: list[bytes] = field(default_factory=list)
    log: list[Entry] = field(default_factory=list)
    fixed: dict[str, set[str]] = field(default_factory=dict)
    """per seat, the cards a twin may not move: named by the opponent's moves, its hand at a knock"""
    seen: dict[str, set[str]] = field(default_factory=dict)
    tainted: bool = False
    """the table was lost in this hand (a crash, a refusal that changed it): no twin"""


@dataclass
class Game:
    players: tuple[str, str]
    dealer: str
    rules: str
    hands: list[Hand] = field(default_factory=list)

    def new(self, deck: list[str]) -> Request:
        return {"op": "new", "players": list(self.players), "dealer": self.dealer, "rules": self.rules,
                "deck": deck}


def rebuild(referee: Referee, game: Game, decks: list[list[str]] | None = None) -> None:
    """Deal ``game`` again (``decks``: other decks for its hands) and play every move it accepted."""
    for index, hand in enumerate(game.hands):
        deck = decks[index] if decks else hand.deck
        referee.ask(game.new(deck) if index == 0 else {"op": "next_hand", "deck": deck})
        if hand is not game.hands[-1]:
            for move in hand.moves:
                referee.ask(json.loads(move))


# -- a player that knocks now and then ---------------------------------------------------------------


def points(card: str) -> int:
    return min(RANKS.index(card[0]) + 1, 10)


@functools.lru_cache(maxsize=50_000)
def deadwood(cards: frozenset[str]) -> int:
    """The least deadwood of ``cards`` (sets and runs of three or more; the probe's own count)."""
    if not cards:
        return 0
    first = min(cards, key=CARDS.index)
    best = points(first) + deadwood(cards - {first})
    for meld in melds_with(first, cards):
        best = min(best, deadwood(cards - meld))
    return best


def melds_with(card: str, cards: frozenset[str]) -> Iterator[frozenset[str]]:
    """The sets and runs within ``cards`` that hold ``card`` (aces low)."""
    same = sorted(c for c in cards if c[0] == card[0] and c != card)
    for i, first in enumerate(same):
        for second in same[i + 1:]:
            yield frozenset((card, first, second))
    if len(same) == 3:
        yield frozenset((card, *same))
    rank, suit = RANKS.index(card[0]), card[1]
    for low in range(rank + 1):
        for high in range(max(rank, low + 2), 13):
            run = frozenset(RANKS[r] + suit for r in range(low, high + 1))
            if not run <= cards:
                break
            yield run


def choose(legal: list[str], view: Request, rng: random.Random) -> str:
    """A legal move: knock when it may, lay off, keep the discard that leaves least deadwood."""
    enders = [m for m in legal if m.split()[0] in ENDINGS]
    layoffs = [m for m in legal if ">" in m]
    discards = [m for m in legal if m.startswith("discard ")]
    hand = frozenset(view["hand"])
    if enders and rng.random() < 0.85:
        return rng.choice(enders)
    if layoffs and rng.random() < 0.8:
        return rng.choice(layoffs)
    if discards and rng.random() < 0.85:
        return min(discards, key=lambda m: (deadwood(hand - {m.split()[1]}), -points(m.split()[1])))
    top = view["pile"][-1] if view["pile"] else view.get("upcard")
    if "take" in legal and isinstance(top, str) and len(hand) < 11 and rng.random() < 0.9:
        with_top = hand | {top}
        if min(deadwood(with_top - {c}) for c in hand) < deadwood(hand):
            return "take"
        if "draw" in legal or "pass" in legal:
            return "draw" if "draw" in legal else "pass"
    return rng.choice(legal)


# -- the probes ----------------------------------------------------------------------------------------


GARBAGE: tuple[object, ...] = (True, False, 0, -1, 1.5, 2**70, [], {}, [1, 2], {"a": 1}, "", " ", "x" * 500,
                               "\u0000", "\u202e", "null", ["discard 7H"])
WORDS = ("shuffle", "undo", "resign", "draw draw", "discard", "knock", "gin", "[", "]", "7H>", ">1",
         "discard 1Z", "discard 10H", "discard ♥7", "take take", "knock [", "finish [[", "defend", "big_gin",
         "layoff", "discard 7H 8H", "0", "-1", "é", "pass pass", "finish [] []", "discard AH,", "discard \t",
         "🂡")


@dataclass
class Seat:
    """What the probes draw from, for one seat at one moment."""

    name: str
    other: str
    truth: Truth
    seen: set[str]
    rng: random.Random

    def card(self) -> str:
        """A card worth naming: mostly one hidden from the seat (the stock's next most of all)."""
        rng, roll = self.rng, self.rng.random()
        theirs: set[str] = set(self.truth.views[self.other]["hand"])
        hidden_hand = sorted(theirs - self.seen, key=CARDS.index)
        stock = self.truth.stock()
        if roll < 0.35 and hidden_hand:
            return rng.choice(hidden_hand)
        if roll < 0.6 and stock:
            return stock[0] if rng.random() < 0.5 else rng.choice(stock)
        own = self.truth.views[self.name]["hand"]
        if roll < 0.8 and own:
            return str(rng.choice(own))
        return rng.choice(CARDS)

    def meld(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.4:  # a real meld, when the opponent's hand holds one
            other = frozenset(self.truth.views[self.other]["hand"])
            found = [m for c in other for m in melds_with(c, other)]
            if found:
                return "[" + " ".join(sorted(rng.choice(found), key=CARDS.index)) + "]"
        if roll < 0.7:  # a run around a card
            card = self.card()
            rank = RANKS.index(card[0])
            low = min(max(0, rank - rng.randrange(3)), 10)
            return "[" + " ".join(RANKS[r] + card[1] for r in range(low, low + 3)) + "]"
        return "[" + " ".join(self.card() for _ in range(rng.choice((0, 1, 3, 3, 4)))) + "]"

    def move_text(self) -> str:
        rng = self.rng
        kind = rng.choice(("discard", "discard", "draw", "take", "knock", "gin", "big_gin", "layoff",
                           "finish", "defend", "pass", "word"))
        if kind == "word":
            return rng.choice(WORDS) if rng.random() < 0.7 else "".join(
                rng.choice("abcdefgh 0123456789[]>KQJT") for _ in range(rng.randrange(1, 20)))
        if kind in ("discard", "draw", "take"):
            return kind if kind != "discard" and rng.random() < 0.2 else f"{kind} {self.card()}"
        if kind in ("knock", "gin", "big_gin"):
            melds = " ".join(self.meld() for _ in range(rng.randrange(4)))
            return f"{kind} {melds}" if kind == "big_gin" else f"{kind} {self.card()} {melds}"
        if kind == "layoff":
            return f"{self.card()}>{rng.randrange(5)}"
        if kind in ("finish", "defend"):
            return f"{kind} " + " ".join(self.meld() for _ in range(rng.randrange(3)))
        return kind

    def probe(self) -> Request | bytes:
        """One request a cheating or broken client could send for this seat."""
        rng, me = self.rng, self.name
        roll = rng.random()
        if roll < 0.5:
            text = self.move_text()
            text = rng.choice((text, text, text.upper(), text.lower(), text.title(), text.swapcase()))
            return {"op": "move", "player": me, "move": text}
        if roll < 0.64:
            return rng.choice(self.asking())
        if roll < 0.7:
            return rng.choice(self.operating())
        if roll < 0.8:
            who = rng.choice(("Zed", me.lower(), me.upper(), me + " ", self.other + "x"))
            if who in (me, self.other):
                who = "Zed"
            return {"op": rng.choice(("legal", "view", "move", "record")), "player": who,
                    "move": rng.choice(("draw", "take", "pass", f"discard {self.card()}"))}
        if roll < 0.95:
            return self.garbage()
        if rng.random() < 0.02:
            depth = rng.randrange(100, 3000)
            return b"[" * depth + b"]" * depth
        return rng.choice((b"{", b"not json", b"[]", b"\xff\xfe", b'"op"', b"123", b"{}",
                           _line({"op": "move", "player": me, "move": f"discard {self.card()}"})[:-1]))

    def asking(self) -> list[Request]:
        me, other = self.name, self.other
        return [{"op": "view", "player": me, "seat": other}, {"op": "view", "player": me},
                {"op": "record", "player": me}, {"op": "record", "player": me, "format": "gin"},
                {"op": "legal", "player": me}, {"op": "view", "player": me, "seat": "Zed"}]

    def operating(self) -> list[Request]:
        me = self.name
        players = [me, self.other]
        return [{"op": "pop", "player": me},
                {"op": "new", "player": me, "players": players, "seed": self.rng.randrange(1000)},
                {"op": "new", "player": me, "players": players, "deck": list(CARDS)},
                {"op": "next_hand", "player": me, "seed": self.rng.randrange(1000)}]

    def garbage(self) -> Request:
        rng, me = self.rng, self.name
        junk = rng.choice(GARBAGE)
        request: Request = rng.choice((
            {"op": "move", "player": me, "move": junk},
            {"op": "view", "player": me, "seat": junk},
            {"op": junk, "player": me},
            {"op": "record", "player": me, "format": junk},
            {"op": "move", "player": junk, "move": "draw"},
            {"op": "legal", "player": me, "id": junk},
            {"op": "move", "player": me, "move": f"discard {self.card()}", "seat": junk},
            {"op": "next_hand", "player": me, "deck": junk},
        ))
        if request.get("player") in ("", None):
            request["player"] = me
        return request


def request_cards(line: bytes) -> set[str]:
    """The cards a request names itself, in any spelling a referee may read (an answer may echo
    them): ``7h``, ``10H``, ``3C4C5C`` run together, ``♥7``, ``7♥``, the playing-card codepoints,
    and any rank and suit letters side by side in a word (a message may quote the words)."""
    text = " ".join(_words(line))
    cards = {_card(rank, suit) for rank, suit in LETTER_CARD.findall(text)}  # inside any word: "Hj6D[" echoed
    for rank, symbol in SYMBOL_AFTER.findall(text) + [(r, s) for s, r in SYMBOL_BEFORE.findall(text)]:
        cards.add(_card(rank, SUITS["♣♦♥♠♧♢♡♤".index(symbol) % 4]))
    for char in text:
        code = ord(char) - 0x1F0A0
        if 0 <= code < 64 and 1 <= code % 16 <= 14 and code % 16 != 12:
            rank = code % 16 - (code % 16 > 12)
            cards.add(RANKS[rank - 1] + "SHDC"[code // 16])
    return cards


def _words(line: bytes) -> list[str]:
    """The text of a request's values, but the names of players (a name is no card: "North")."""
    try:
        request = json.loads(line)
    except (ValueError, RecursionError):
        return [line.decode("utf-8", "replace")]
    words: list[str] = []
    stack: list[object] = [request]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack += [v for k, v in value.items() if k not in ("player", "players", "seat", "dealer")]
        elif isinstance(value, list):
            stack += value
        elif isinstance(value, str):
            words.append(value)
    return words


def _card(rank: str, suit: str) -> str:
    return ("T" if rank == "10" else rank.upper()) + suit.upper()


# -- the run ---------------------------------------------------------------------------------------------


@dataclass
class Leak:
    kind: str
    where: str
    request: str
    answer: str
    note: str = ""
    twin: str | None = None
    """the twin's answer, for a ``twin`` leak"""

    def __str__(self) -> str:
        note = f" ({self.note})" if self.note else ""
        lines = [f"{self.kind} at {self.where}{note}", f"    sent:   {_short(self.request)}",
                 f"    answer: {_short(self.answer)}"]
        if self.twin is not None:
            lines.append(f"    twin:   {_short(self.twin)}")
        return "\n".join(lines)


def _short(text: str) -> str:
    return text if len(text) <= 300 else f"{text[:120]}... ({len(text)} characters)"


@dataclass
class Tally:
    games: int = 0
    hands: int = 0
    seat_requests: int = 0
    refusals: int = 0
    knocks: int = 0
    layoffs: int = 0
    twins: int = 0
    twin_requests: int = 0
    twin_skipped: int = 0
    leaks: collections.Counter[str] = field(default_factory=collections.Counter)
    shown: list[Leak] = field(default_factory=list)


class Probe:
    """The run: games on referee ``a``; the twins on referee ``b``."""

    def __init__(self, command: list[str], args: argparse.Namespace) -> None:
        self.command = command
        self.args = args
        self.tally = Tally()
        self.a = Referee(command, args.timeout)
        self.b = Referee(command, args.timeout)
        self.leaks: IO[str] | None = None

    def leak(self, kind: str, where: str, request: bytes | str, answer: str | None, note: str = "",
             twin: str | None = None) -> None:
        self.tally.leaks[kind] += 1
        sent = request.decode("utf-8", "replace") if isinstance(request, bytes) else request
        leak = Leak(kind, where, sent, answer if answer is not None else "(none)", note, twin)
        if len(self.tally.shown) < self.args.show or all(s.kind != kind for s in self.tally.shown):
            self.tally.shown.append(leak)
        if self.leaks is not None:
            self.leaks.write(json.dumps(leak.__dict__, ensure_ascii=False) + "\n")

    # -- games

    def run(self) -> None:
        rng = random.Random(self.args.seed)
        rule_sets = self.args.rules.split(",")
        for number in range(self.args.games):
            if 0 < self.args.max_leaks <= sum(self.tally.leaks.values()):
                break
            players = rng.choice(PAIRS)
            game = Game(players, rng.choice(players), rule_sets[number % len(rule_sets)])
            seed = rng.getrandbits(64)
            if self.args.game not in (None, number + 1):
                continue
            self.tally.games += 1
            try:
                self.play_game(game, random.Random(seed), f"game {number + 1}")
            except Lost as exc:
                self.leak("crash", f"game {number + 1}", "(operator)", None, str(exc)[:200])
                self.a.restart()
        self.a.close()
        self.b.close()

    def play_game(self, game: Game, rng: random.Random, where: str) -> None:
        for index in range(self.args.hands):
            deck = rng.sample(CARDS, 52)
            first = index == 0
            deal = game.new(deck) if first else {"op": "next_hand", "deck": deck}
            answer = _decoded(self.a.send(_line(deal)))
            if answer is None or not answer["ok"]:
                if first:
                    raise Lost(f"new refused: {answer}")
                return  # the game is over
            hand = Hand(deck)
            game.hands.append(hand)
            self.tally.hands += 1
            self.play_hand(game, hand, rng, f"{where} hand {index + 1}")
            if not hand.tainted and not self.args.no_twin:
                for seat in game.players:
                    self.twin(game, hand, seat, rng, f"{where} hand {index + 1}")

    def play_hand(self, game: Game, hand: Hand, rng: random.Random, where: str) -> None:
        players = game.players
        hand.seen = {p: set() for p in players}
        hand.fixed = {p: set() for p in players}
        truth = self.look(game, hand, where)
        for _step in range(MAX_STEPS):
            if truth.over:
                break
            truth = self.turn(game, hand, truth, rng, where)
        self.probe_batch(game, hand, truth, rng, where, self.args.probes)

    def turn(self, game: Game, hand: Hand, truth: Truth, rng: random.Random, where: str) -> Truth:
        """Probes from both seats, then the move of the seat to move (unless a probe moved)."""
        moved = self.probe_batch(game, hand, truth, rng, where, self.args.probes)
        if moved is not None:
            return moved
        mover = truth.to_move
        assert mover is not None
        move = choose(truth.legal, truth.views[mover], rng)
        request = _line({"op": "move", "player": mover, "move": move})
        text = self.seat_send(hand, mover, request, truth)
        if text is None or not (_decoded(text) or {}).get("ok"):
            raise Lost(f"the legal move {move!r} was refused: {text}")
        return self.moved(game, hand, mover, request, text, truth, where)

    def probe_batch(self, game: Game, hand: Hand, truth: Truth, rng: random.Random, where: str,
                    count: int) -> Truth | None:
        """The probes of one step; the new truth when one of them was accepted as a move."""
        sent: list[bytes] = []
        mover = truth.to_move
        for seat in rng.sample(game.players, 2):
            other = next(p for p in game.players if p != seat)
            for _ in range(count if seat == mover else max(1, count // 2)):
                probe = _line(Seat(seat, other, truth, hand.seen[seat], rng).probe())
                result = self.probe_one(game, hand, seat, probe, truth, where)
                if isinstance(result, Truth):
                    return result
                sent.append(probe)
        after = truth_of(self.a, game.players)
        if after.key() != truth.key():
            self.leak("changed", where, b" | ".join(sent[:4]), None, "the operator's record or views changed")
            hand.tainted = True
            return self.redeal(game, hand, where)
        return None

    def probe_one(self, game: Game, hand: Hand, seat: str, line: bytes, truth: Truth,
                  where: str) -> Truth | None:
        text = self.seat_send(hand, seat, line, truth)
        if text is None:
            self.leak("crash", f"{where}, {seat}", line, None, self.a.death())
            return self.recover(game, hand, where)
        answer = _decoded(text)
        if answer is None:
            self.leak("bad_answer", f"{where}, {seat}", line, text)
            return None
        if "internal error" in text:
            self.leak("crash", f"{where}, {seat}", line, text)
        if not answer["ok"]:
            self.tally.refusals += 1
            self.scan(seat, line, text, truth.hidden(seat, hand.seen[seat]), truth, where)
            return None
        return self.accepted(game, hand, seat, line, text, truth, where)

    def accepted(self, game: Game, hand: Hand, seat: str, line: bytes, text: str, truth: Truth,
                 where: str) -> Truth | None:
        request = _request(line)
        if request is None:  # a line that is not a request was answered ok
            self.leak("bad_answer", f"{where}, {seat}", line, text, "a line that is no request was accepted")
            return None
        op, player = request.get("op"), request.get("player")
        if player not in game.players:
            self.leak("unseated", f"{where}, {seat}", line, text)
        if op in ("new", "next_hand", "pop"):
            self.leak("seat_op", f"{where}, {seat}", line, text)
            return self.redeal(game, hand, where)
        if (op == "view" and request.get("seat", player) != player) or (op == "record" and not truth.over):
            self.leak("other_seat", f"{where}, {seat}", line, text)
        if op == "move":
            if player not in game.players:
                return self.redeal(game, hand, where)
            return self.moved(game, hand, seat, line, text, truth, where)
        self.scan(seat, line, text, truth.hidden(seat, hand.seen[seat]), truth, where)
        return None

    def moved(self, game: Game, hand: Hand, seat: str, line: bytes, text: str, before: Truth,
              where: str) -> Truth:
        """A move was played: the new truth; the move's answer scanned once the seat knows its card."""
        hand.log[-1].moved = True
        hand.moves.append(line)
        words = str((_decoded(text) or {}).get("move", "")).split()
        self.tally.knocks += bool(words) and words[0] in ENDINGS
        self.tally.layoffs += bool(words) and ">" in words[0]
        other = next(p for p in game.players if p != seat)
        played = str((_decoded(text) or {}).get("move", ""))
        hand.fixed[other] |= request_cards(line)
        if not played.startswith("draw"):  # a card drawn stays the seat's secret: the twin may change it
            hand.fixed[other] |= request_cards(played.encode())
        if str(json.loads(line).get("move", "")).split()[:1] in (["knock"], ["gin"], ["big_gin"]):
            hand.fixed[other] |= set(before.views[seat]["hand"])
        truth = self.look(game, hand, where)
        hand.log[-1].over = hand.log[-1].over or truth.over
        self.scan(seat, line, text, truth.hidden(seat, hand.seen[seat]), truth, where)
        return truth

    def redeal(self, game: Game, hand: Hand, where: str) -> Truth:
        """The table as the moves played made it, after a request that should have been refused
        (or a refusal that changed it), dealt again."""
        hand.log[-1].redealt = True
        rebuild(self.a, game)
        for move in hand.moves:
            self.a.ask(json.loads(move))
        return self.look(game, hand, where)

    def recover(self, game: Game, hand: Hand, where: str) -> Truth:
        """The table as it was, in a new process (after a crash)."""
        hand.tainted = True
        self.a.restart()
        rebuild(self.a, game)
        for move in hand.moves:
            self.a.ask(json.loads(move))
        return self.look(game, hand, where)

    def look(self, game: Game, hand: Hand, where: str) -> Truth:
        """The operator's truth, and each seat's own view: what it learns, and whether it shows too much."""
        truth = truth_of(self.a, game.players)
        for seat in game.players:
            line = _line({"op": "view", "player": seat})
            text = self.seat_send(hand, seat, line, truth)
            answer = _decoded(text)
            if text is None or answer is None or not answer["ok"]:
                raise Lost(f"{seat}'s own view was refused: {text}")
            self.check_view(hand, seat, answer["view"], truth, line, text, where)
        return truth

    def check_view(self, hand: Hand, seat: str, view: Request, truth: Truth, line: bytes, text: str,
                   where: str) -> None:
        shown = view_cards(view)
        other = next(p for p in truth.views if p != seat)
        if not truth.over:
            unseen = (set(truth.views[other]["hand"]) - hand.seen[seat]) - set(view.get("opponent_took", []))
            unseen -= {c for meld in view.get("melds", []) for c in meld}
            unseen -= {lay["card"] for lay in view.get("layoffs", []) if isinstance(lay, dict)}
            wrong = shown & (unseen | set(truth.stock()))
            if wrong:
                self.leak("view", f"{where}, {seat}", line, text, "shows " + " ".join(sorted(wrong)))
        if view != truth.views[seat]:
            self.leak("view", f"{where}, {seat}", line, text, "differs from the operator's view of the seat")
        hand.seen[seat] |= shown

    def seat_send(self, hand: Hand, seat: str, line: bytes, truth: Truth) -> str | None:
        self.tally.seat_requests += 1
        text = self.a.send(line)
        hand.log.append(Entry(line, seat, text or "", False, truth.over))
        return text

    def scan(self, seat: str, line: bytes, text: str, hidden: set[str], truth: Truth, where: str) -> None:
        """The leaks an answer to ``seat`` shows: hidden cards named, hidden cards placed."""
        body = EXAMPLE.sub("", _without_id(text).replace('\\"', '"'))
        asked = request_cards(line)
        named = set(CARD_IN_ANSWER.findall(body))
        if named & hidden - asked:
            self.leak("hidden_card", f"{where}, {seat}", line, text,
                      "names " + " ".join(sorted(named & hidden - asked, key=CARDS.index)))
        other = next(p for p in truth.views if p != seat)
        placed = STOCK_PHRASES.search(body) or f"{other}'s hand".lower() in body.lower()
        if placed and (named | asked) & hidden:
            self.leak("placement", f"{where}, {seat}", line, text,
                      "places " + " ".join(sorted((named | asked) & hidden, key=CARDS.index)))

    # -- the twin

    def twin(self, game: Game, hand: Hand, seat: str, rng: random.Random, where: str) -> None:
        """Deal the hand again with the cards hidden from ``seat`` all along permuted; replay it; compare."""
        fixed = hand.seen[seat] | hand.fixed[seat]
        free = [c for c in hand.deck if c not in fixed]
        if len(free) < 2:
            return
        moved = free[:]
        while moved == free:
            rng.shuffle(moved)
        swap = dict(zip(free, moved, strict=True))
        decks = [h.deck for h in game.hands[:-1]] + [[swap.get(c, c) for c in hand.deck]]
        self.tally.twins += 1
        try:
            rebuild(self.b, game, decks)
            self.replay(hand, seat, where)
        except Lost:
            self.tally.twin_skipped += 1
            self.b.restart()

    def replay(self, hand: Hand, seat: str, where: str) -> None:
        for entry in hand.log:
            if entry.over:
                return
            if (entry.seat != seat and not entry.moved) or entry.redealt:
                continue
            text = self.b.send(entry.line)
            if text is None:
                self.leak("crash", f"{where} (twin), {seat}", entry.line, None, self.b.death())
                raise Lost("twin stopped")
            if entry.seat != seat:
                if not (_decoded(text) or {}).get("ok"):
                    raise Lost(f"twin refused a move: {text}")  # the probe's own limit: counted as skipped
                continue
            self.tally.twin_requests += 1
            if _without_id(text) != _without_id(entry.answer):
                self.leak("twin", f"{where}, {seat}", entry.line, entry.answer, twin=text)
                if (_decoded(text) or {}).get("ok") and not (_decoded(entry.answer) or {}).get("ok"):
                    if (_request(entry.line) or {}).get("op") == "move":
                        self.b.ask({"op": "pop"})
                elif entry.moved:
                    raise Lost("twin refused the seat's move")

    # -- the cases that once stopped the session

    def cases(self) -> None:
        """Deep nesting and a long name, each in a fresh process."""
        self.nested(b"[" * 988 + b"]" * 988, "988 nested brackets")
        self.nested(b'{"op":' * 5000 + b"1" + b"}" * 5000, "5000 nested objects")
        self.long_name()

    def nested(self, line: bytes, what: str) -> None:
        referee = Referee(self.command, self.args.timeout)
        try:
            referee.ask({"op": "new", "seed": 1})
            text = referee.send(line)
            if text is None or _decoded(text) is None or "internal error" in text:
                self.leak("crash", f"case: {what}", line[:60] + b"...", text, referee.death())
                return
            after = _decoded(referee.send(_line({"op": "legal"})))
            if after is None or not after["ok"]:
                self.leak("crash", f"case: {what}", b'{"op":"legal"} after it', str(after), referee.death())
        except Lost as exc:
            self.leak("crash", f"case: {what}", line[:60] + b"...", None, str(exc)[:200])
        finally:
            referee.close()

    def long_name(self) -> None:
        """A name over 80 characters: refused at ``new``, or a whole hand played with it."""
        referee = Referee(self.command, self.args.timeout)
        name = "Q" * 90
        request: Request = {"op": "new", "players": [name, "Bo"], "seed": 7}
        try:
            if not (_decoded(referee.send(_line(request))) or {}).get("ok"):
                referee.close()
                return
            rng = random.Random(1)
            for _step in range(MAX_STEPS):
                legal = referee.ask({"op": "legal"})["moves"]
                if not legal:
                    break
                move = rng.choice(legal)
                request = {"op": "move", "move": move}
                if referee.ask(request).get("over"):
                    referee.ask({"op": "record"})
                    break
        except Lost as exc:
            self.leak("crash", "case: a player name of 90 characters", _line(request), None,
                      f"{exc}"[:120] + f"; {referee.death()}")
            referee.close()
            return
        status = referee.close()
        if status != 0:
            self.leak("crash", "case: a player name of 90 characters", b"(end of input)", None,
                      f"exit {status}")

    def summary(self) -> str:
        t = self.tally
        kinds = ", ".join(f"{k} {t.leaks[k]}" for k in KINDS if t.leaks[k])
        return (f"seat_probe: {t.games} games, {t.hands} hands, {self.a.sent + self.b.sent} requests "
                f"({t.seat_requests} from seats), {t.refusals} refusals, {t.knocks} knocks, "
                f"{t.layoffs} layoffs, {t.twins} twins "
                f"({t.twin_requests} requests compared, {t.twin_skipped} not replayable), "
                f"{sum(t.leaks.values())} leaks" + (f": {kinds}" if kinds else ""))


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--command", default=f"{shlex.quote(sys.executable)} -m ginref table",
                        help="the referee to start (default: %(default)s)")
    parser.add_argument("--game", type=int, metavar="N",
                        help="play only game N of the run (to see its leaks again)")
    parser.add_argument("--hands", type=int, default=2, help="hands per game at most (default: %(default)s)")
    parser.add_argument("--rules", default=",".join(RULE_SETS), help="rule sets, in turn (comma-separated)")
    parser.add_argument("--probes", type=int, default=4,
                        help="probes per step from the seat to move, half as many from the other")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for an answer")
    parser.add_argument("--max-leaks", type=int, default=0,
                        help="stop once this many leaks are found (0: never)")
    parser.add_argument("--leaks", metavar="FILE", help="write every leak to FILE, one JSON object a line")
    parser.add_argument("--show", type=int, default=5, help="leaks shown (and the first of each kind)")
    parser.add_argument("--no-twin", action="store_true", help="skip the twin deals")
    parser.add_argument("--no-cases", action="store_true", help="skip the nesting and long-name cases")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    command = shlex.split(args.command)
    probe = Probe(command, args)
    with contextlib.ExitStack() as stack:
        if args.leaks:
            probe.leaks = stack.enter_context(open(args.leaks, "w", encoding="utf-8"))
        if not args.no_cases:
            probe.cases()
        probe.run()
    print(probe.summary())
    for leak in probe.tally.shown:
        print(leak)
    return 1 if probe.tally.leaks else 0


if __name__ == "__main__":
    sys.exit(main())
