"""Errors become replies here, and only here: ``{"error": {"code", "message"}}``; and
``declared`` names them in the OpenAPI schema, route by route."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException

from app.api.limits import BodyTooLarge
from app.api.schemas import ErrorOut
from app.db.engine import DatabaseUnavailable, database_unavailable
from app.errors import AppError
from app.ops.metrics import METRICS

# What each refusal status means in this API (the ``code`` says which refusal it is).
STATUS_MEANING = {
    400: "Refused: the body is not JSON, or a rule of the request was broken",
    401: "No valid bearer token (`auth/required`, `auth/bad_token`, `auth/expired`, ...)",
    403: "Not yours to do (`lobby/not_host`, `tournament/not_organiser`, ...)",
    404: "Nothing by that id or name (`match/not_found`, `lobby/unknown_game`, ...)",
    409: "The resource is not in a state that allows this (`lobby/full`, ...)",
    413: "The request body is larger than the API takes (`request/too_large`)",
    422: "A value out of bounds or malformed (`request/invalid`), or refused by the rules",
    429: "Too many attempts: retry after `Retry-After` seconds",
    503: "Busy or unreachable for a moment (`server/busy`, `cluster/unavailable`): retry",
}


def declared(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route: each refusal status it returns, with the error body."""
    return {
        status: {"model": ErrorOut, "description": STATUS_MEANING[status]} for status in statuses
    }


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    METRICS.error(code)
    return {"error": {"code": code, "message": message, **extra}}


# The refusals a route's shape implies, whatever its own code refuses: a body may not be JSON
# (400), any parameter or body may be out of bounds (422), a token may be bad (401).
SHAPE_REFUSALS = (
    ("requestBody", 400),
    ("requestBody", 422),
    ("parameters", 422),
    ("security", 401),
)


def declare_shape_refusals(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI schema declare, on every operation, the refusals its shape
    implies (``SHAPE_REFUSALS``), so a route that forgets one in ``declared`` still tells
    the truth; the routes declare the refusals of their own logic."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        schema = build()
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        error_schema = ErrorOut.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, definition in error_schema.pop("$defs", {}).items():
            components.setdefault(name, definition)
        components.setdefault("ErrorOut", error_schema)
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                for part, status in SHAPE_REFUSALS:
                    if operation.get(part) and str(status) not in responses:
                        responses[str(status)] = {
                            "description": STATUS_MEANING[status],
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/ErrorOut"}
                                }
                            },
                        }
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal answered in the error format, and declared in the OpenAPI schema."""
    declare_shape_refusals(app)

    @app.exception_handler(AppError)
    async def _app_error(_request: Request, exc: AppError) -> JSONResponse:
        return JSONResponse(
            error_body(exc.code, exc.message, **(exc.extra or {})),
            status_code=exc.status,
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        details = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))}
            for e in exc.errors()
        ]
        return JSONResponse(
            error_body("request/invalid", "the request is malformed", details=details),
            status_code=422,
        )

    @app.exception_handler(DBAPIError)
    async def _database_busy(_request: Request, exc: DBAPIError) -> JSONResponse:
        # SQLite's write lock stayed taken past the busy timeout: a retry will do, nothing
        # was written (the transaction rolled back). The database down, restarting or out of
        # space (``database_unavailable``): the same, as ``server/unavailable``. Anything
        # else is a real server error.
        if "database is locked" in str(exc.orig) or "database is busy" in str(exc.orig):
            return JSONResponse(
                error_body("server/busy", "the database is busy; retry shortly"),
                status_code=503,
                headers={"Retry-After": "1"},
            )
        if not database_unavailable(exc):
            raise exc
        return _unavailable(exc)

    @app.exception_handler(ConnectionError)
    async def _database_unreachable(_request: Request, exc: ConnectionError) -> JSONResponse:
        # The pool could not connect (the database is down or restarting): requests reach
        # no other server (Redis failures are ``cluster/unavailable`` already).
        return _unavailable(exc)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        # A bug: still the API's error format (Starlette logs the traceback itself).
        return JSONResponse(
            error_body("server/internal", "the server failed; this is a bug"), status_code=500
        )

    @app.exception_handler(BodyTooLarge)
    async def _too_large(_request: Request, exc: BodyTooLarge) -> JSONResponse:
        return JSONResponse(error_body("request/too_large", str(exc.detail)), status_code=413)

    @app.exception_handler(HTTPException)
    async def _http(_request: Request, exc: HTTPException) -> JSONResponse:
        # Its headers too: a 405 names the methods that are allowed (``Allow``).
        body = error_body(f"http/{exc.status_code}", str(exc.detail))
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


def _unavailable(error: Exception) -> JSONResponse:
    unavailable = DatabaseUnavailable(error)
    return JSONResponse(
        error_body(unavailable.code, unavailable.message, retry=True),
        status_code=503,
        headers={"Retry-After": "1"},
    )
