"""Errors become replies here, and only here: ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException

from app.errors import AppError


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def _app_error(_request: Request, exc: AppError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message), status_code=exc.status)

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

    @app.exception_handler(OperationalError)
    async def _database_busy(_request: Request, exc: OperationalError) -> JSONResponse:
        # SQLite's write lock stayed taken past the busy timeout: a retry will do, nothing
        # was written (the transaction rolled back). Anything else is a real server error.
        if "database is locked" not in str(exc.orig) and "database is busy" not in str(exc.orig):
            raise exc
        return JSONResponse(
            error_body("server/busy", "the database is busy; retry shortly"),
            status_code=503,
            headers={"Retry-After": "1"},
        )

    @app.exception_handler(HTTPException)
    async def _http(_request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse(
            error_body(f"http/{exc.status_code}", str(exc.detail)), status_code=exc.status_code
        )
