"""A referee that leaks on purpose: ``ginref table`` behind a proxy, so that
tests/referee/test_seat_probe.py can show tools/seat_probe.py finds what it is for.

    python tests/support/leaky_referee.py --leak card      # a seat's refusal names the stock's bottom card
    python tests/support/leaky_referee.py --leak spacing   # ... or only ends with 0-6 spaces, by that card
    python tests/support/leaky_referee.py --leak view      # a seat's own view shows that card on the pile
    python tests/support/leaky_referee.py --leak undo      # a refused move takes the last move back

The proxy forwards each line to a ``python -m ginref table`` it starts and writes back its
answer; to a refusal of a request that names a ``player``, before the hand is over, it adds
what the operator's record says is the stock's last card (hidden from both seats until the
wall): by name (the probe's scan must see it) or only as trailing spaces in the message (no
card is named: only the probe's twin deal can tell). Or it shows that card in a seat's own view,
or takes the last move back when it refuses a seat's move.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import IO, Any

CARDS = tuple(rank + suit for suit in "CDHS" for rank in "A23456789TJQK")


def ask(child: subprocess.Popen[bytes], line: bytes) -> bytes:
    stdin, stdout = child.stdin, child.stdout
    assert stdin is not None and stdout is not None
    stdin.write(line.rstrip(b"\r\n") + b"\n")
    stdin.flush()
    return stdout.readline()


def bottom_card(child: subprocess.Popen[bytes]) -> str | None:
    """The stock's last card while the hand is in play (None: over, or no stock known)."""
    answer = json.loads(ask(child, b'{"op":"record"}'))
    if not answer.get("ok"):
        return None
    hand = answer["record"]["hands"][-1]
    stock = hand.get("stock") or []
    over = hand.get("result", {}).get("outcome") != "unfinished"
    return None if over or not stock else str(stock[-1])


def leaked(request: Any, answer: dict[str, Any], child: subprocess.Popen[bytes], how: str) -> dict[str, Any]:
    """The answer as the proxy tells it to a seat."""
    if not (isinstance(request, dict) and isinstance(request.get("player"), str)):
        return answer
    view = answer.get("view")
    if how == "view":  # the seat's own view shows the stock's last card on the pile
        card = bottom_card(child) if isinstance(view, dict) else None
        if card is None or not isinstance(view, dict):
            return answer
        return {**answer, "view": {**view, "pile": [*view["pile"], card]}}
    card = bottom_card(child) if answer.get("ok") is False else None
    if card is None:
        return answer
    if how == "undo":  # a refused move takes the last move back
        if request.get("op") == "move" and answer.get("error") == "illegal_move":
            ask(child, b'{"op":"pop"}')
        return answer
    extra = f" (the stock ends with {card})" if how == "card" else " " * (CARDS.index(card) % 7)
    return {**answer, "message": str(answer.get("message", "")) + extra}


def serve(stdin: IO[bytes], stdout: IO[bytes], how: str) -> None:
    child = subprocess.Popen([sys.executable, "-m", "ginref", "table"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    for line in stdin:
        if not line.strip():
            continue
        text = ask(child, line)
        if not text:
            break
        try:
            request, answer = json.loads(line), json.loads(text)
        except (ValueError, RecursionError):
            stdout.write(text)
        else:
            told = leaked(request, answer, child, how)
            stdout.write(json.dumps(told, separators=(",", ":")).encode() + b"\n")
        stdout.flush()
    if child.stdin is not None:
        child.stdin.close()
    child.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leak", choices=("card", "spacing", "view", "undo"), default="card")
    serve(sys.stdin.buffer, sys.stdout.buffer, parser.parse_args().leak)


if __name__ == "__main__":
    main()
