"""The REST half of the client: accounts, tables, quick play and match reads over httpx."""

from __future__ import annotations

from typing import Any, TypedDict

import httpx


class ApiError(Exception):
    """A refusal: ``status`` (HTTP), ``code`` (stable, ``area/reason``), ``message``, and
    ``retry_after`` (seconds) when the server says when to try again."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.retry_after = status, code, message, retry_after


class Account(TypedDict):
    id: int
    name: str
    guest: bool
    bot: bool


class Token(TypedDict):
    token: str
    token_type: str
    account: Account


class Rampart:
    """A REST client for one server, signed in or not. ``async with Rampart(url) as api``."""

    def __init__(self, base_url: str, token: str | None = None, *, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.account: Account | None = None
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout)

    async def __aenter__(self) -> Rampart:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()

    async def request(self, method: str, path: str, **kwargs: Any) -> Any:
        """One request; the decoded JSON body, or ``ApiError`` for any refusal."""
        headers = kwargs.pop("headers", {})
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        response = await self.http.request(method, path, headers=headers, **kwargs)
        if response.status_code >= 400:
            try:
                error = response.json()["error"]
                code, message = str(error["code"]), str(error["message"])
            except (ValueError, KeyError, TypeError):
                code, message = "http/error", response.text[:200]
            retry = response.headers.get("Retry-After")
            raise ApiError(response.status_code, code, message, float(retry) if retry else None)
        if response.status_code == 204 or not response.content:
            return None
        return response.json()

    # ----- accounts ------------------------------------------------------------------------

    async def _signed_in(self, token: Token) -> Token:
        self.token, self.account = token["token"], token["account"]
        return token

    async def guest(self, name: str) -> Token:
        """Become a guest called ``name`` (the name is then taken)."""
        return await self._signed_in(
            await self.request("POST", "/api/accounts", json={"name": name})
        )

    async def register(self, name: str, password: str, *, bot: bool = False) -> Token:
        """Register ``name`` with ``password``; ``bot=True`` makes it a bot account (a program
        playing through the API, shown as a bot wherever its name shows)."""
        body: dict[str, Any] = {"name": name, "password": password, "bot": bot}
        return await self._signed_in(await self.request("POST", "/api/accounts", json=body))

    async def log_in(self, name: str, password: str) -> Token:
        body = {"name": name, "password": password}
        return await self._signed_in(await self.request("POST", "/api/sessions", json=body))

    async def me(self) -> Account:
        account: Account = await self.request("GET", "/api/accounts/me")
        return account

    # ----- games, tables and quick play ----------------------------------------------------

    async def games(self) -> list[dict[str, Any]]:
        games: list[dict[str, Any]] = await self.request("GET", "/api/games")
        return games

    async def create_table(self, game: str, seats: int, **fields: Any) -> dict[str, Any]:
        """A new table you sit at (``options``, ``public``, ``rated``, ``time_control`` ...)."""
        table: dict[str, Any] = await self.request(
            "POST", "/api/lobbies", json={"game": game, "seats": seats, **fields}
        )
        return table

    async def join(self, lobby_id: int, invite_code: str | None = None) -> dict[str, Any]:
        body = {} if invite_code is None else {"invite_code": invite_code}
        table: dict[str, Any] = await self.request(
            "POST", f"/api/lobbies/{lobby_id}/join", json=body
        )
        return table

    async def add_bots(
        self, lobby_id: int, count: int, kind: str = "heuristic", difficulty: str = "normal"
    ) -> dict[str, Any]:
        body = {"kind": kind, "count": count, "difficulty": difficulty}
        table: dict[str, Any] = await self.request(
            "POST", f"/api/lobbies/{lobby_id}/bots", json=body
        )
        return table

    async def start(self, lobby_id: int) -> int:
        """Start the table's match; returns its id."""
        started = await self.request("POST", f"/api/lobbies/{lobby_id}/start")
        return int(started["match_id"])

    async def quick_play(self, game: str, seats: int, **fields: Any) -> dict[str, Any]:
        """Queue for a match; poll ``ticket`` (or listen on the lobby socket) for it."""
        ticket: dict[str, Any] = await self.request(
            "POST", "/api/queue", json={"game": game, "seats": seats, **fields}
        )
        return ticket

    async def ticket(self, ticket: str) -> dict[str, Any]:
        found: dict[str, Any] = await self.request("GET", f"/api/queue/{ticket}")
        return found

    # ----- matches ---------------------------------------------------------------------------

    async def match(self, match_id: int) -> dict[str, Any]:
        found: dict[str, Any] = await self.request("GET", f"/api/matches/{match_id}")
        return found

    async def state(self, match_id: int, version: int | None = None) -> dict[str, Any]:
        params = {} if version is None else {"version": version}
        found: dict[str, Any] = await self.request(
            "GET", f"/api/matches/{match_id}/state", params=params
        )
        return found
