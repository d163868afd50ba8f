"""Write ginref/schemas/*.schema.json, the JSON Schemas of every `--json` output.

    python tools/schemas.py          # rewrite the schema files
    python tools/schemas.py --check  # exit 1 when a file is stale

The schemas ship in the package (ginref/schemas/, package data); docs/json-output.md
says which command writes which, and tests/project/test_json_schemas.py validates each command's
output against its schema and fails when a file is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parent.parent / "ginref" / "schemas"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
Schema = dict[str, Any]

CARD: Schema = {"type": "string", "pattern": "^[A2-9TJQK][CDHS]$",
                "description": "a card: rank then suit, T for ten"}
CARDS: Schema = {"type": "array", "items": {"$ref": "#/$defs/card"}, "uniqueItems": True}
MELD: Schema = {"type": "array", "items": {"$ref": "#/$defs/card"}, "minItems": 3}
MELDS: Schema = {"type": "array", "items": {"$ref": "#/$defs/meld"}}
NAME: Schema = {"type": "string", "minLength": 1}
COUNT: Schema = {"type": "integer", "minimum": 0}
SIGNED: Schema = {"type": "integer"}
TOTALS: Schema = {"type": "object", "additionalProperties": COUNT, "minProperties": 2, "maxProperties": 2,
                  "description": "player name -> points"}
DEFS: Schema = {"card": CARD, "cards": CARDS, "meld": MELD, "melds": MELDS}
LAYOFF: Schema = {"type": "object", "required": ["card", "onto"], "additionalProperties": False,
                  "properties": {"card": {"$ref": "#/$defs/card"}, "onto": {"$ref": "#/$defs/meld"}}}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def record(properties: dict[str, Schema], optional: tuple[str, ...] = (), *, closed: bool = True) -> Schema:
    """An object with these properties, all required but ``optional``; no others when ``closed``."""
    return {"type": "object", "required": [k for k in properties if k not in optional],
            "properties": properties, "additionalProperties": not closed}


def document(name: str, title: str, body: Schema, defs: Schema | None = None) -> Schema:
    return {"$schema": DRAFT, "$id": f"ginref/schemas/{name}.schema.json", "title": title, **body,
            "$defs": {**DEFS, **(defs or {})}}


ARRANGEMENT = {"melds": {"$ref": "#/$defs/melds"}, "deadwood": {"$ref": "#/$defs/cards"},
               "deadwood_points": COUNT}


def _analysis_body(*, line: bool) -> Schema:
    discard = record({"discard": {"$ref": "#/$defs/card"}, **ARRANGEMENT, "can_knock": {"type": "boolean"},
                      "gin": {"type": "boolean"}, "legal": {"type": "boolean"}})
    lead: dict[str, Schema] = {"line": {"type": "integer", "minimum": 1}} if line else {}
    return record({
        **lead,
        "cards": {"$ref": "#/$defs/cards", "minItems": 10, "maxItems": 11}, **ARRANGEMENT,
        "can_knock": {"type": "boolean"}, "gin": {"type": "boolean"}, "knock_limit": COUNT,
        "best_discard": nullable({"$ref": "#/$defs/card"}), "big_gin": {"type": "boolean"},
        "discards": {"type": "array", "items": discard},
        "arrangements": {"type": "array", "items": record(ARRANGEMENT)},
        "upcard": nullable({"$ref": "#/$defs/card"}), "notes": {"type": "array", "items": {"type": "string"}},
        "rules": NAME,
    }, optional=("best_discard", "big_gin", "discards", "arrangements"))


def analysis() -> Schema:
    return document("analysis", "ginref analyze --json and ginref knock --json", _analysis_body(line=False))


def analysis_line() -> Schema:
    error = record({"line": {"type": "integer", "minimum": 1}, "column": {"type": "integer", "minimum": 0},
                    "input": {"type": "string", "maxLength": 80}, "error": {"type": "string"}})
    body = {"oneOf": [_analysis_body(line=True), error]}
    return document("analysis-line", "one line of ginref analyze - --json (JSON Lines): an answer or why not",
                    body)


def score() -> Schema:
    step = record({"text": {"type": "string"},
                   "knobs": {"type": "object", "additionalProperties": {"type": "string"}}})
    knocker = record({**ARRANGEMENT, "discard": nullable({"$ref": "#/$defs/card"}),
                      "declaration_found": {"type": "boolean"}})
    defender = record({"melds": {"$ref": "#/$defs/melds"}, "layoffs": {"type": "array", "items": LAYOFF},
                       "deadwood": {"$ref": "#/$defs/cards"}, "deadwood_points": COUNT})
    outcomes = ["knock", "gin", "big_gin", "undercut", "tie", "illegal_knock", "void"]
    body = record({
        "players": record({"knocker": NAME, "defender": NAME}),
        "outcome": {"enum": outcomes}, "winner": {"enum": ["knocker", "defender", None]},
        "points": COUNT, "multiplier": {"type": "integer", "minimum": 1}, "knock_limit": COUNT,
        "knocker": knocker, "defender": defender, "reason": nullable({"type": "string"}),
        "explanation": {"type": "array", "items": {"type": "string"}},
        "steps": {"type": "array", "items": step}, "rules": NAME,
    }, optional=("players",))
    return document("score", "ginref score --json", body)


def layoffs() -> Schema:
    candidate = record({"card": {"$ref": "#/$defs/card"}, "onto": {"$ref": "#/$defs/melds"}})
    body = record({
        "knocker_melds": {"$ref": "#/$defs/melds"}, "defender": {"$ref": "#/$defs/cards"},
        "knocker_gin": {"type": "boolean"}, "layoffs_allowed": {"type": "boolean"},
        "candidates": {"type": "array", "items": candidate}, "melds": {"$ref": "#/$defs/melds"},
        "layoffs": {"type": "array", "items": LAYOFF}, "deadwood": {"$ref": "#/$defs/cards"},
        "deadwood_points": COUNT, "rules": NAME,
    })
    return document("layoffs", "ginref layoffs --json", body)


def rules() -> Schema:
    from ginref.rules import KNOB_MEANINGS, KNOB_NAMES, STANDARD, knob_choices

    knobs: dict[str, Schema] = {}
    for knob in KNOB_NAMES:
        choices = knob_choices(knob)
        value = getattr(STANDARD, knob)
        if isinstance(value, bool):
            schema: Schema = {"type": "boolean"}
        elif choices and not isinstance(value, int | type(None)):
            schema = {"enum": list(choices)}
        elif choices:
            schema = {"enum": [int(c) for c in choices]}
        elif knob in ("big_gin_bonus", "max_discard_draws", "layoff_chain_limit"):
            schema = {"anyOf": [COUNT, {"const": "off"}]}
        else:
            schema = COUNT
        knobs[knob] = {**schema, "description": KNOB_MEANINGS[knob]}
    body = record({
        "name": NAME, "label": NAME, "aliases": {"type": "array", "items": NAME},
        "description": {"type": "string"}, **knobs,
        "overrides": {"type": "object", "description": "knob -> value, each knob changed from the preset"},
    })
    return document("rules", "ginref rules NAME --json", body)


def rules_list() -> Schema:
    item = record({"name": NAME, "aliases": {"type": "array", "items": NAME},
                   "description": {"type": "string"}})
    return document("rules-list", "ginref rules --json", {"type": "array", "items": item, "minItems": 1})


def rules_fit() -> Schema:
    from ginref.rulefit import MOST_NAMED

    knob = record({"knob": NAME, "values": {"type": "array", "items": {"type": "string"}}, "hands": COUNT})
    parting = record({
        "rules": NAME, "source": {"type": "string"}, "index": COUNT,
        "hand": {**COUNT, "description": "the hand's number; 0: the record as a whole"},
        "line": {**COUNT, "description": "the finding's line, or its record's (a JSON record: see pointer)"},
        "pointer": {"type": "string", "description": "a JSON pointer into the record, or empty"},
        "code": {**NAME, "description": "the referee's finding code there"},
        "message": {"type": "string"},
        "knobs": {"type": "array", "items": {"type": "string"},
                  "description": "the knobs whose solved value the rules do not have"},
    })
    body = record({
        "records": COUNT, "unreadable": COUNT, "hands": COUNT,
        "evidence": {**COUNT, "description": "hands that record points: a scoring result or running totals"},
        "final_totals": {**COUNT, "description": "records that claim final totals"},
        "tried": {"type": "array", "items": NAME,
                  "description": "the rule sets the records were ruled under"},
        "presets": {"type": "array", "items": NAME,
                    "description": "those that give back every recorded point (none: nothing recorded)"},
        "rejected": {"type": "array", "items": parting,
                     "description": "where each of the others first parts"},
        "knobs": {"type": "array", "items": knob},
        "named": {"type": "array", "items": NAME},
        "partings": {"type": "array", "items": parting,
                     "description": "where the rules the records name first part from them"},
        "unfollowed": {**COUNT, "description": f"records naming rules past the first {MOST_NAMED} named"},
    })
    title = "ginref rules --fit PATH... --json: the rules a batch's recorded points allow"
    return document("rules-fit", title, body)


def game() -> Schema:
    bonus = record({"kind": {"enum": ["game", "shutout", "box"]}, "points": COUNT,
                    "detail": {"type": "string"}})
    per_player_bonuses = {"type": "object", "additionalProperties": {"type": "array", "items": bonus}}
    common_hand = {"number": {"type": "integer", "minimum": 1}, "dealer": nullable(NAME),
                   "winner": nullable(NAME), "outcome": {"type": "string"}, "knocker": nullable(NAME),
                   "points": COUNT, "multiplier": {"type": "integer", "minimum": 1},
                   "next_dealer": nullable(NAME)}
    hand = record({**common_hand, "boxes": COUNT, "box_points": COUNT, "totals": TOTALS,
                   "game_over": {"type": "boolean"}})
    tally = {"players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2},
             "rules": NAME, "game_target": COUNT, "first_dealer": nullable(NAME),
             "hands": {"type": "array", "items": hand}, "hand_totals": TOTALS, "hands_won": TOTALS,
             "boxes": TOTALS, "bonuses": per_player_bonuses, "final_totals": TOTALS,
             "game_over": {"type": "boolean"}, "winner": nullable(NAME), "leader": nullable(NAME),
             "margin": COUNT, "shutout": {"type": "boolean"}, "next_dealer": nullable(NAME)}
    numbers = {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 3}}
    match_hand = record({**common_hand, "games": numbers, "closed": numbers,
                         "totals": {"type": "array", "items": TOTALS, "minItems": 3, "maxItems": 3}})
    match = {"players": tally["players"], "rules": NAME, "game_target": COUNT, "first_dealer": nullable(NAME),
             "hands": {"type": "array", "items": match_hand},
             "games": {"type": "array", "items": record(tally), "minItems": 3, "maxItems": 3},
             "match_over": {"type": "boolean"}, "games_won": TOTALS, "match_totals": TOTALS,
             "winner": nullable(NAME), "leader": nullable(NAME), "margin": COUNT,
             "next_dealer": nullable(NAME)}
    error = record({"line": {"type": "integer", "minimum": 1}, "column": {"type": "integer", "minimum": 0},
                    "message": {"type": "string"}})
    chart = record({"target": COUNT, "top": {"type": "integer", "minimum": 1}, "games": {
        "type": "array", "items": {"type": "array", "items": record({"hand": {"type": "integer"},
                                                                     "totals": TOTALS})}}})
    extra = {"source": {"type": "string"}, "errors": {"type": "array", "items": error}, "chart": chart}
    body = {"oneOf": [record({**extra, **tally}, optional=("chart",)),
                      record({**extra, **match}, optional=("chart",))]}
    return document("game", "ginref game --json (one game, or a Hollywood match)", body)


def finding() -> Schema:
    knobs = {"type": "array", "items": {"type": "string"}, "minItems": 1,
             "description": "the rule knobs that decided the finding (absent for a rule of every game)"}
    return record({"code": {"type": "string"}, "severity": {"enum": ["error", "advisory"]},
                   "message": {"type": "string"}, "place": {"type": "object"},
                   "hand": nullable({"type": "integer", "minimum": 0}), "knobs": knobs}, optional=("knobs",))


def verdict_properties() -> dict[str, Schema]:
    hand = {"type": "object", "required": ["index", "outcome", "winner", "points"],
            "properties": {"index": COUNT, "number": nullable({"type": "integer"}),
                           "outcome": {"type": "string"}, "winner": nullable(NAME), "points": COUNT,
                           "totals_after": nullable(TOTALS), "next_dealer": nullable(NAME)}}
    return {"source": {"type": "string"}, "index": COUNT, "line": COUNT, "rules": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}}, "clean": {"type": "boolean"},
            "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
            "hands": {"type": "array", "items": hand}, "hand_totals": nullable(TOTALS),
            "final_totals": nullable(TOTALS), "winner": nullable(NAME), "game_over": {"type": "boolean"}}


def unreadable() -> Schema:
    return {"type": "object", "required": ["source", "index", "line", "error"],
            "properties": {"source": {"type": "string"}, "index": COUNT, "line": COUNT, "column": COUNT,
                           "error": {"type": "string"}}}


def adjudicate() -> Schema:
    required = ["source", "index", "line", "rules", "clean", "findings", "hands"]
    verdict = {"type": "object", "required": required, "properties": verdict_properties()}
    body = {"type": "array", "items": {"anyOf": [verdict, {"$ref": "#/$defs/unreadable"}]}}
    return document("adjudicate", "ginref adjudicate --json: one verdict per record", body,
                    {"finding": finding(), "unreadable": unreadable()})


def verify() -> Schema:
    result = {"type": "object", "required": ["source", "index", "line", "status"],
              "properties": {**verdict_properties(), "status": {"enum": ["clean", "findings", "unreadable"]},
                             "error": {"type": "string"}, "column": COUNT}}
    summary = record({"records": COUNT, "clean": COUNT, "with_findings": COUNT, "unreadable": COUNT,
                      "with_advisories": COUNT, "by_code": {"type": "object", "additionalProperties": COUNT}})
    body = record({"records": {"type": "array", "items": {"$ref": "#/$defs/result"}}, "summary": summary})
    return document("verify", "ginref verify --json (each element also one line of --jsonl)", body,
                    {"finding": finding(), "result": result})


def advise() -> Schema:
    share: Schema = {"type": "number", "minimum": 0, "maximum": 1}
    figures = {"p_win": share, "p_undercut": share, "p_tie": share, "expected_points": {"type": "number"}}
    option = record({
        "discard": nullable({"$ref": "#/$defs/card"}), "melds": {"$ref": "#/$defs/melds"},
        "deadwood": {"$ref": "#/$defs/cards"}, "deadwood_points": COUNT, "gin": {"type": "boolean"},
        "ending": {"enum": ["knock", "gin", "big_gin"]}, **figures,
        "ci95": record({k: {"type": "number", "minimum": 0} for k in figures}),
    }, optional=("ci95",), closed=False)
    body = record({
        "cards": {"$ref": "#/$defs/cards"}, "method": {"enum": ["exact", "sampled"]},
        "defender_hands": COUNT, "possible_hands": COUNT, "seed": SIGNED, "unseen": COUNT, "stock": COUNT,
        "knock_limit": COUNT, "options": {"type": "array", "items": option},
        "reason": nullable({"type": "string"}), "rules": {"type": "string"},
    }, closed=False)
    return document("advise", "ginref advise --json: each way to knock now, with its odds", body)


def report() -> Schema:
    from ginref.audit import GROUPS, PlayerReport

    counts: Schema = {"type": "object", "additionalProperties": COUNT, "description": "finding code -> count"}
    figures = {name: COUNT for name in PlayerReport.__struct_fields__
               if name not in ("name", "illegal_moves", "undercut_risk", "players", "winner")}
    risk = record({"weighed": COUNT, "risky": COUNT, "expected_undercuts": {"type": "number", "minimum": 0}})
    row = record({
        "name": NAME, **figures, "illegal_moves": counts, "illegal_move_count": COUNT,
        "average_knock_deadwood": nullable({"type": "number", "minimum": 0}),
        "wall_share": nullable({"type": "number", "minimum": 0, "maximum": 1}),
        "undercut_risk": nullable(risk),
        "players": {"type": "array", "items": NAME, "description": "--by game: the record's players"},
        "winner": nullable(NAME),
    })
    summary = record({"records": COUNT, "clean": COUNT, "with_findings": COUNT, "unreadable": COUNT,
                      "with_advisories": COUNT, "by_code": counts})
    weighing = record({"samples": {"type": "integer", "minimum": 1}, "seed": SIGNED,
                       "risk_above": {"type": "number", "minimum": 0, "maximum": 1}})
    body = record({
        "by": {"enum": list(GROUPS)}, "rows": {"type": "array", "items": row}, "games": COUNT, "hands": COUNT,
        "summary": summary, "record_errors": counts, "advise": nullable(weighing),
    })
    return document("report", "ginref report --json: each player's play and errors over a batch", body)


def standings() -> Schema:
    """``report --standings --json``: the report's keys, then the standings'."""
    share: Schema = {"type": "number", "minimum": 0, "maximum": 1}
    number: Schema = {"type": "number"}

    def span(item: Schema) -> Schema:
        return {"type": "array", "items": item, "minItems": 2, "maxItems": 2, "description": "[low, high]"}

    row = record({
        "player": NAME, "games": COUNT, "wins": COUNT, "losses": COUNT, "draws": COUNT,
        "win_rate": share, "win_rate_ci95": span(share), "rating": number, "rating_ci95": span(number),
        "net_points_per_hand": nullable(number), "net_points_per_hand_ci95": nullable(span(number)),
    })
    head = record({"player": NAME, "opponent": NAME, "games": COUNT, "wins": COUNT, "losses": COUNT,
                   "draws": COUNT, "points_for": COUNT, "points_against": COUNT})
    method = record({"games": COUNT, "draws": COUNT, "bootstrap_rounds": COUNT, "seed": SIGNED,
                     "few_games_below": COUNT, "prior": {"type": "string"}})
    pair = record({"player": NAME, "pairs": COUNT, "points": SIGNED, "points_per_pair": number,
                   "points_per_pair_ci95": nullable(span(number))})
    duplicate = record({"players": {"type": "array", "items": pair}, "unpaired": COUNT})
    names: Schema = {"type": "array", "items": NAME}
    base = report()
    body = record({
        **base["properties"],
        "standings": {"type": "array", "items": row}, "head_to_head": {"type": "array", "items": head},
        "method": method, "few_games": names, "not_yet_separable": {"type": "array", "items": names},
        "duplicate": nullable(duplicate),
    })
    return document("standings", "ginref report --standings --json: the report, then the standings", body)


def view_schema() -> Schema:
    """A seat's view, as ``ginref table`` and the bot protocol show it."""
    return record({
        "player": NAME, "phase": {"type": "string"}, "to_move": nullable(NAME),
        "hand": {"$ref": "#/$defs/cards"},
        "pile": {"$ref": "#/$defs/cards"}, "upcard": nullable({"$ref": "#/$defs/card"}),
        "taken": nullable({"$ref": "#/$defs/card"}), "opponent_took": {"$ref": "#/$defs/cards"},
        "opponent_cards": COUNT, "stock": COUNT, "unknown": COUNT, "knocker": nullable(NAME),
        "melds": {"$ref": "#/$defs/melds"},
        "layoffs": {"type": "array", "items": record({"card": {"$ref": "#/$defs/card"}, "onto": COUNT})},
    })


def bot() -> Schema:
    """One line of the bot protocol (docs/match.md), to the bot or from it."""
    ident: Schema = {"type": "integer", "minimum": 1}
    seconds = nullable({"type": "number"})
    to_bot = [
        record({"type": {"const": "hello"}, "protocol": {"const": 1}}),
        record({"type": {"const": "new_game"}, "players": {"type": "array", "items": NAME, "minItems": 2,
                                                          "maxItems": 2},
                "seat": NAME, "rules": NAME,
                "set": {"type": "object", "additionalProperties": {"type": "string"},
                        "description": "the knobs changed from the rule set named, as `ginref table`'s `new` "
                                       "takes them"},
                "seed": COUNT}, optional=("set",)),
        record({"type": {"const": "new_hand"}, "hand": {"type": "integer", "minimum": 1}, "dealer": NAME}),
        record({"type": {"const": "act"}, "id": ident, "view": view_schema(),
                "legal": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "clock": record({"move": seconds, "game_left": seconds, "bank_left": {"type": "number"}}),
                "refusal": nullable({"type": "string"})}),
        record({"type": {"const": "opponent"}, "player": NAME,
                "move": {"type": "string",
                         "description": "as the seat may see it: a knock names no discard"}}),
        record({"type": {"const": "hand_over"},
                "ruling": {"type": "object", "required": ["outcome", "winner", "points"],
                           "description": "the ruling on the hand, as adjudicate --json gives each hand"}}),
        record({"type": {"const": "ping"}, "id": ident}),
        record({"type": {"const": "quit"}}),
    ]
    from_bot = [
        record({"type": {"const": "ready"}, "name": NAME, "protocol": {"const": 1},
                "options": {"type": "object"}}, optional=("protocol", "options"), closed=False),
        record({"id": ident, "move": {"type": "string", "maxLength": 1000},
                "comment": nullable({"type": "string"})}, optional=("comment",), closed=False),
        record({"id": ident, "type": {"const": "pong"}}),
    ]
    body = {"anyOf": [*to_bot, *from_bot]}
    return document("bot", "the bot protocol (ginref match, ginref bot): one line, either way", body)


def table() -> Schema:
    """One answer line of ``ginref table``: a refusal, or what the request asked for."""
    from ginref.referee.protocol import ERRORS

    ident: Schema = {"description": "the request's id, repeated: any JSON value"}
    refusal = record({"ok": {"const": False}, "error": {"enum": list(ERRORS)}, "message": {"type": "string"},
                      "code": {"type": "string"}, "rule": nullable({"type": "string"}),
                      "place": {"type": "string"},
                      "detail": {"type": "string",
                                 "description": "the referee's own words: the operator's only"},
                      "id": ident},
                     optional=("code", "rule", "place", "detail", "id"))
    view = view_schema()
    game = record({"game_over": {"type": "boolean"}, "winner": nullable(NAME),
                   "hand_totals": {"type": "object", "additionalProperties": SIGNED},
                   "final_totals": {"type": "object", "additionalProperties": SIGNED}})
    answer = record({
        "ok": {"const": True}, "hand": {"type": "integer", "minimum": 1, "description": "the hand's number"},
        "phase": {"enum": ["upcard", "draw", "discard", "wall", "defence", "over"]},
        "to_move": nullable(NAME), "dealer": NAME, "over": {"type": "boolean"},
        "seed": {"type": "integer", "minimum": 0, "description": "the seed the hand was shuffled with"},
        "outcome": {"type": "object", "required": ["outcome", "winner", "points"],
                    "description": "the ruling on the hand, as adjudicate --json gives each hand"},
        "game": game,
        "move": {"type": "string"},
        "card": {"$ref": "#/$defs/card", "description": "the card the mover drew"},
        "moves": {"type": "array", "items": {"type": "string"}},
        "why": {"enum": ["not_your_turn", "hand_over"], "description": "why 'moves' is empty"},
        "view": view, "record": {"type": ["object", "string"], "description": "JSON record, or .gin text"},
        "id": ident,
    }, optional=("hand", "phase", "to_move", "dealer", "over", "seed", "outcome", "game", "move", "card",
                 "moves", "why", "view", "record", "id"))
    body = {"anyOf": [refusal, answer]}
    return document("table", "ginref table: one answer line (JSON Lines on standard output)", body)


SCHEMAS = {"analysis": analysis, "analysis-line": analysis_line, "score": score, "layoffs": layoffs,
           "rules": rules, "rules-list": rules_list, "rules-fit": rules_fit, "game": game,
           "adjudicate": adjudicate, "verify": verify, "advise": advise, "report": report,
           "standings": standings, "table": table, "bot": bot}


def texts() -> dict[str, str]:
    """Each schema file's name and text."""
    return {f"{name}.schema.json": json.dumps(make(), indent=2) + "\n" for name, make in SCHEMAS.items()}


def main(argv: list[str]) -> int:
    stale = [name for name, text in texts().items()
             if not (FOLDER / name).exists() or (FOLDER / name).read_text(encoding="utf-8") != text]
    if "--check" in argv:
        print("stale: " + ", ".join(stale) if stale else "the schemas are up to date")
        return 1 if stale else 0
    FOLDER.mkdir(exist_ok=True)
    for name, text in texts().items():
        (FOLDER / name).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
