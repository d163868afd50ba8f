"""Kaggle environments' gin rummy episodes (``"name": "open_spiel_gin_rummy"``) as records.

An episode replay is one JSON document (the structure of the sample replays under
``kaggle_environments/envs/open_spiel_env/games/gin_rummy/visualizer``). Fields used:

- the game parameters: ``info.openSpielGameStringResolved``, else
  ``configuration.openSpielGameString``, else ``configuration.openSpielGameParameters``;
- the full action history, chance outcomes included: the ``serializedGameAndState`` of
  the last step's observations, else ``info.actionHistory``;
- the agents' names: ``info.TeamNames``, else each ``info.Agents[i].Name`` (two different
  names of printable text), else OpenSpiel's ``P0`` and ``P1``;
- ``rewards`` and ``statuses``, one per agent. Kaggle's rewards say only who won (1, -1)
  or a draw (0, 0), so a finished hand claims ``win`` or ``draw``, not points; a hand
  that stops before its end claims ``unfinished``: ``timeout``, ``illegal_move`` or
  ``error`` for an agent with that status, else ``forfeit`` by the agent rewarded less
  (its last action saying it forfeits), else ``stopped``.
"""

from __future__ import annotations

import re
from typing import Any

from msgspec.structs import replace

from ginref.errors import RecordError
from ginref.records.form import Format, Unit
from ginref.records.jsonform import load_json
from ginref.records.model import ClaimedResult, GameRecord, Place
from ginref.records.openspiel import (
    PLAYERS,
    GameParams,
    History,
    decode_history,
    parse_game_string,
    parse_history_line,
    parse_serialized,
)

__all__ = ["EPISODE_NAME", "FORMAT", "decode_episode", "looks_like_episode"]

EPISODE_NAME = "open_spiel_gin_rummy"
_NAME_RE = re.compile(r'"name"\s*:\s*"open_spiel_gin_rummy"')
_STATUS_REASONS = {"TIMEOUT": "timeout", "INVALID": "illegal_move", "ERROR": "error"}


def looks_like_episode(text: str) -> bool:
    """Whether a JSON text is a gin rummy episode (its ``name`` near the top, as Kaggle writes it)."""
    return _NAME_RE.search(text[:4096]) is not None


def decode_episode(data: object, source: str = "", line: int = 1, index: int = 0) -> GameRecord:
    """The record of one episode; raises :class:`RecordError` for anything else."""
    if type(data) is not dict or data.get("name") != EPISODE_NAME:
        raise _error(f'not a kaggle gin rummy episode (its "name" is not "{EPISODE_NAME}")', source, line)
    params = _params(data, source, line)
    history = _history(data, source, line)
    tags = (("Site", "Kaggle"),) + ((("Episode", data["id"]),) if isinstance(data.get("id"), str) else ())
    names = _agent_names(data)
    record = decode_history(history, params, names=names, source=source, index=index, tags=tags)
    return _with_claim(record, data, names, line)


_MAX_NAME = 64
"""the longest agent name taken from an episode (a longer one falls back to P0/P1)"""


def _agent_names(data: dict[str, Any]) -> tuple[str, str]:
    """The two agents' names as the episode gives them, else ``P0`` and ``P1``."""
    info = data.get("info")
    listed = _get(info, "TeamNames")
    if type(listed) is not list:
        agents = _get(info, "Agents")
        listed = [_get(agent, "Name") for agent in agents] if type(agents) is list else None
    if type(listed) is not list or len(listed) != 2:
        return PLAYERS
    first, second = listed
    if first != second and all(_fair_name(name) for name in listed):
        return first, second
    return PLAYERS


def _fair_name(name: object) -> bool:
    """A name fit for a record: printable text, not blank at either end, not too long."""
    return (isinstance(name, str) and 0 < len(name) <= _MAX_NAME and name.isprintable()
            and name.strip() == name)


def _error(message: str, source: str, line: int) -> RecordError:
    return RecordError(message, source, line, 1)


def _get(data: object, *keys: str) -> Any:
    for key in keys:
        if type(data) is not dict:
            return None
        data = data.get(key)
    return data


def _params(data: dict[str, Any], source: str, line: int) -> GameParams:
    info, configuration = data.get("info"), data.get("configuration")
    for text in (_get(info, "openSpielGameStringResolved"), _get(configuration, "openSpielGameString")):
        if isinstance(text, str):
            return parse_game_string(text, source, line)
    given = _get(data, "configuration", "openSpielGameParameters")
    if type(given) is dict:
        parts = ",".join(f"{k}={v}" for k, v in given.items() if type(v) in (int, bool))
        return parse_game_string(f"gin_rummy({parts})", source, line)
    return GameParams()


def _history(data: dict[str, Any], source: str, line: int) -> History:
    """The state the episode ended in (the last step's ``serializedGameAndState``), else
    ``info.actionHistory``: Kaggle's published forfeit sample keeps the whole game's
    history in ``info`` while its steps stop at the forfeit."""
    steps = data.get("steps")
    last = steps[-1] if type(steps) is list and steps else None
    for agent in last if type(last) is list else ():
        text = _get(agent, "observation", "serializedGameAndState")
        if isinstance(text, str):
            return parse_serialized(text, source, line)[1]
    actions = _get(data, "info", "actionHistory")
    if type(actions) is list:
        if not all(type(a) in (int, str) and re.fullmatch("[0-9]{1,4}", str(a)) for a in actions):
            raise _error("info.actionHistory holds something that is not an action id", source, line)
        return parse_history_line("[" + ",".join(str(a) for a in actions) + "]", source, line)
    raise _error("the episode has neither a serializedGameAndState nor info.actionHistory", source, line)


def _with_claim(record: GameRecord, data: dict[str, Any], names: tuple[str, str], line: int) -> GameRecord:
    hand = record.hands[0]
    rewards = data.get("rewards")
    statuses = data.get("statuses")
    place = Place(line)
    if hand.result is not None:  # the hand ended: Kaggle's rewards say who won
        claim = _rewards_claim(rewards, names, place)
        if claim is None:
            raise _error("the episode's rewards are not two numbers", record.source, line)
    else:
        claim = _stop_claim(rewards, statuses, names, place)
    return replace(record, hands=(replace(hand, result=claim, score_after=None),))


def _rewards_claim(rewards: object, names: tuple[str, str], place: Place) -> ClaimedResult | None:
    if type(rewards) is not list or len(rewards) != 2 or not all(type(r) in (int, float) for r in rewards):
        return None
    if rewards[0] == rewards[1]:
        return ClaimedResult("draw", place=place)
    return ClaimedResult("win", names[0 if rewards[0] > rewards[1] else 1], place=place)


def _stop_claim(rewards: object, statuses: object, names: tuple[str, str], place: Place) -> ClaimedResult:
    """Why the game stopped, and through whom: a bad status, else the agent rewarded less."""
    if type(statuses) is list and len(statuses) == 2:
        for seat, status in enumerate(statuses):
            if status in _STATUS_REASONS:
                return ClaimedResult("unfinished", place=place, reason=_STATUS_REASONS[status],
                                     stopped_by=names[seat])
    won = _rewards_claim(rewards, names, place)
    if won is not None and won.winner is not None:
        loser = 1 - names.index(won.winner)
        return ClaimedResult("unfinished", place=place, reason="forfeit", stopped_by=names[loser])
    return ClaimedResult("unfinished", place=place, reason="stopped")


def _decode_unit(unit: Unit) -> tuple[GameRecord]:
    data = load_json(unit.text, unit.source, unit.line, document=True)
    return (decode_episode(data, unit.source, unit.line, unit.index),)


def _sniff(text: str, start: int) -> bool:
    return text.find(EPISODE_NAME, start, start + 4096) >= 0 and looks_like_episode(text[start:])


FORMAT = Format("kaggle", "a Kaggle episode", "document", _decode_unit, _sniff, opens="{",
                reads=("json", "jsonl"), in_lines="Kaggle episodes, one a line")
"""A Kaggle episode (``open_spiel_gin_rummy``), one JSON document: told by its name near the top"""
