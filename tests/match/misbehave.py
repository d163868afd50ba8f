"""A bot over the protocol that misbehaves in one named way (argv[1]); otherwise it plays the
first legal move. It imports nothing of ginref, as a bot in another language would not."""

import json
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
CARDS = [r + s for s in "CDHS" for r in "A23456789TJQK"]


def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


if MODE == "crash_start":
    sys.exit(3)
if MODE == "deaf":  # ready, then never reads its input again
    sys.stdin.readline()
    say({"type": "ready", "name": "deaf", "options": {}})
    time.sleep(60)
LOG = open(sys.argv[2], "a") if MODE == "log" else None  # noqa: SIM115 - kept for the run
acts = 0
for line in sys.stdin:
    if LOG is not None:
        LOG.write(line)
        LOG.flush()
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        if MODE == "no_handshake":
            time.sleep(60)
        if MODE == "stderr_only":
            sys.stderr.write("ready, I think\n")
            sys.stderr.flush()
            time.sleep(60)
        say({"type": "ready", "name": "misbehave-" + MODE, "options": {}})
    elif kind == "ping":
        if MODE != "stall":
            say({"id": message["id"], "type": "pong"})
    elif kind == "act":
        acts += 1
        ident = message["id"]
        move = message["legal"][0]
        if MODE == "crash_mid" and acts == 3:
            sys.exit(4)
        if MODE == "stall" and acts == 2:
            time.sleep(60)
        if MODE == "slow_move" and acts == 2:
            time.sleep(0.6)
        if MODE == "slow_game":
            time.sleep(0.08)
        if MODE == "illegal" and message["view"]["phase"] == "discard":
            move = "discard " + next(c for c in CARDS if c not in message["view"]["hand"])
        if MODE == "unknown_word":
            move = "dance"
        if MODE == "not_json" and acts == 2:
            sys.stdout.write("discard, please\n")
            sys.stdout.flush()
            continue
        if MODE == "oversized" and acts == 2:
            sys.stdout.write(json.dumps({"id": ident, "move": move, "comment": "x" * 70000}) + "\n")
            sys.stdout.flush()
            continue
        if MODE == "wrong_id" and acts == 2:
            ident = ident + 1000
        say({"id": ident, "move": move})
    elif kind == "quit":
        break
