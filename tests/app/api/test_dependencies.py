"""Every REST dependency and endpoint is a coroutine: none costs a request a thread-pool hop.

FastAPI runs a plain ``def`` dependency or endpoint on Starlette's thread pool: a hand-over to
a worker thread and back (two GIL switches and a wake-up of the loop) for what is here a
one-line attribute read. Made ``async def``, they run inline on the loop; measured, lobby and
account requests cost 5-8 % less server CPU (bench/PERF.md, "Kept, with the figure that kept
it"). This test keeps a new ``def`` from slipping in.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from app.config import Settings
from app.main import create_app


def _runs_on_loop(call: Callable[..., Any]) -> bool:
    target = call if inspect.isfunction(call) or inspect.ismethod(call) else type(call).__call__
    return inspect.iscoroutinefunction(target) or inspect.isasyncgenfunction(target)


def _api_routes(routes: list[Any]) -> Iterator[APIRoute]:
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        nested = getattr(route, "original_router", None)  # an included router
        if nested is not None:
            yield from _api_routes(nested.routes)


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from _calls(sub)


def test_every_dependency_and_endpoint_runs_on_the_loop(tmp_path: Any) -> None:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.db"))
    routes = list(_api_routes(app.routes))
    assert len(routes) > 40  # the whole REST API, not an empty router
    on_pool = sorted(
        {
            f"{route.path}: {getattr(call, '__qualname__', type(call).__qualname__)}"
            for route in routes
            for call in (route.endpoint, *_calls(route.dependant))
            if not _runs_on_loop(call)
        }
    )
    assert on_pool == []


def test_the_check_sees_a_plain_function() -> None:
    def plain() -> None: ...

    async def coroutine() -> None: ...

    assert not _runs_on_loop(plain)
    assert _runs_on_loop(coroutine)
