"""What checking a hot REST read against its response model would cost, against encoding it as
built (``app.api.responses.common.encoded``) and against what a route returning a plain dict
costs (FastAPI's ``dict[str, Any]`` response field, then ``json.dumps``): a match's state of
each game mid-match, and a page of 50 matches. Prints microseconds per body.

    .venv/bin/python bench/response_models.py
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from pydantic import TypeAdapter

from app.api.responses.matches import MatchList, StateOut
from app.jsonenc import encode_text
from app.sessions.bots import make_bot
from engines import registry
from engines.base import Event, State
from engines.playout import play

TABLES = (("castles", 4), ("ember", 4), ("ambush", 4), ("rampage", 2))
PLAIN_DICT = TypeAdapter(dict[str, Any])


def per_call_us(work: Callable[[], Any], repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        work()
    return (time.perf_counter() - started) / repeat * 1e6


def mid_match_view(game: str, seats: int, changes: int = 60) -> dict[str, Any]:
    """Seat 0's view after ``changes`` changes of a heuristic bots' match."""
    engine = registry.get(game)
    views: list[dict[str, Any]] = []

    def keep(state: State, _events: list[Event]) -> None:
        if len(views) < changes:
            views.append(engine.view(state, 0))

    bots = [make_bot(engine, "heuristic:normal", seat, 3) for seat in range(seats)]
    play(engine, bots, 3, on_change=keep)
    return views[-1]


def as_a_dict_route(body: dict[str, Any]) -> bytes:
    """What FastAPI does with the body of a route annotated ``-> dict[str, Any]``."""
    value = PLAIN_DICT.validate_python(body)
    dumped = PLAIN_DICT.dump_python(value, mode="json")
    return json.dumps(dumped, ensure_ascii=False, separators=(",", ":")).encode()


def checked_state(body: dict[str, Any]) -> str:
    return StateOut.model_validate(body).model_dump_json(exclude_unset=True)


def match_page(count: int) -> dict[str, Any]:
    seat = {
        "seat": 0,
        "account_id": 3,
        "name": "Yarrowdale",
        "player": "Ada",
        "bot": None,
        "difficulty": None,
        "ledger_delta": 12,
    }
    result = {
        "placings": [[0], [1]],
        "seats": {
            "0": {"destroyed": False, "resigned": False, "damage": 0.2},
            "1": {"destroyed": True, "resigned": False, "damage": 1.0},
        },
        "reason": "destroyed",
    }
    match = {
        "id": 1,
        "game": "ambush",
        "status": "finished",
        "rated": True,
        "seats": [seat, {**seat, "seat": 1, "ledger_delta": -12}],
        "options": {"castle_hp": 30},
        "time_control": {"turn_ms": 30000, "on_timeout": "pass"},
        "started_at": "2026-01-01T00:00:00+00:00",
        "ended_at": "2026-01-01T00:10:00+00:00",
        "version": 200,
        "result": result,
        "ledger": {"0": 12, "1": -12},
        "forfeits": {},
        "flags": None,
        "lobby_id": 4,
    }
    return {"total": count, "total_capped": False, "matches": [match] * count}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1000)
    args = parser.parse_args()
    print(f"{'body':<16}{'model check + dump':>20}{'dict route':>14}{'encode as built':>18}")
    for game, seats in TABLES:
        body = {"match_id": 1, "version": 60, "seat": 0, "view": mid_match_view(game, seats)}
        checked = per_call_us(partial(checked_state, body), args.repeat)
        loose = per_call_us(partial(as_a_dict_route, body), args.repeat)
        plain = per_call_us(partial(encode_text, body), args.repeat)
        print(f"{game + ' state':<16}{checked:>17.1f} us{loose:>11.1f} us{plain:>15.1f} us")
    page = match_page(50)
    checked = per_call_us(
        lambda: MatchList.model_validate(page).model_dump_json(exclude_unset=True),
        args.repeat // 10,
    )
    loose = per_call_us(partial(as_a_dict_route, page), args.repeat // 10)
    plain = per_call_us(partial(encode_text, page), args.repeat // 10)
    print(f"{'50 matches':<16}{checked:>17.1f} us{loose:>11.1f} us{plain:>15.1f} us")


if __name__ == "__main__":
    main()
