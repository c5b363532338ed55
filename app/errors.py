"""The server's error family: every refusal carries a stable code and an HTTP status."""

from __future__ import annotations


class AppError(Exception):
    """A refusal with a stable ``code`` (``area/reason``) the client can switch on."""

    status = 400
    # Extra reply headers (``Retry-After`` on a 429 or 503); websocket replies ignore them.
    headers: dict[str, str] | None = None
    # Extra fields of the REST error body beside ``code`` and ``message`` (the match to
    # rejoin on ``queue/already_playing``).
    extra: dict[str, object] | None = None

    def __init__(self, code: str, message: str = "", *, status: int | None = None) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code
        if status is not None:
            self.status = status


class NotFound(AppError):
    status = 404


class Unauthorized(AppError):
    status = 401


class Forbidden(AppError):
    status = 403


class Conflict(AppError):
    status = 409
