"""Floods of cheap requests from one client address, for the fuzz and soak campaigns
(``bench/fuzz_ws.py``, ``bench/soak.py``) and ``tests/fault/test_hostile_client.py``: new
accounts, new public tables from one account, anonymous match reads, lobby sockets that never
say hello, and connections that trickle a request head and stall (slowloris).

The flood speaks from ``address`` through ``X-Forwarded-For``, which the server believes from
127.0.0.1 (uvicorn's default ``FORWARDED_ALLOW_IPS``), so its counts are its own and not those
of the honest clients beside it. ``FloodReport.problems`` lists what went wrong: a 5xx, a limit
that never refused (when the server's limits are meant to be reached), a silent socket left
open, a stalled connection not closed in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

# Close codes of a socket refused for its address's count, or closed for want of a hello.
CLOSE_CROWDED = 4429
CLOSE_NO_HELLO = 4408


@dataclass(frozen=True)
class FloodSize:
    accounts: int = 0
    tables: int = 0
    reads: int = 0
    silent_sockets: int = 0
    slowloris: int = 0
    # Seconds the server takes at most to close a silent socket or a stalled head, plus slack.
    deadline_s: float = 5.0
    # The server's limits are small enough for this flood: each angle must meet a refusal.
    expect_refusals: bool = True


@dataclass
class FloodReport:
    answers: dict[str, Counter[str]] = field(default_factory=dict)
    socket_closes: Counter[str] = field(default_factory=Counter)
    slowloris_closed_s: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def count(self, angle: str, reply: httpx.Response) -> None:
        code = str(reply.status_code)
        if reply.status_code >= 400:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                code += " " + reply.json()["error"]["code"]
        self.answers.setdefault(angle, Counter())[code] += 1
        if reply.status_code >= 500:
            self.problems.append(f"{angle}: {reply.status_code} {reply.text[:200]}")

    def lines(self) -> list[str]:
        slowest = max(self.slowloris_closed_s, default=0.0)
        return [
            f"floods from one address: { ({k: dict(v) for k, v in self.answers.items()}) }",
            f"silent sockets closed: {dict(self.socket_closes)}",
            f"stalled request heads closed: {len(self.slowloris_closed_s)}, "
            f"the slowest after {slowest:.1f} s",
            f"flood problems: {len(self.problems)} {self.problems[:3]}",
        ]


async def flood(base: str, address: str, size: FloodSize, tag: str = "f") -> FloodReport:
    """Every angle of ``size`` at once against the server at ``base`` (``http://host:port``)."""
    report = FloodReport()
    headers = {"x-forwarded-for": address}
    async with httpx.AsyncClient(base_url=base, timeout=30, headers=headers) as http:
        token = await first_account(http, report, tag)
        await asyncio.gather(
            accounts(http, report, size.accounts, tag),
            tables(http, report, size.tables, token),
            reads(http, report, size.reads),
            silent_sockets(base, address, report, size),
            slowloris(base, report, size),
        )
    if size.expect_refusals:
        for angle, wanted in (("accounts", size.accounts), ("tables", size.tables)):
            refused = sum(n for code, n in report.answers.get(angle, {}).items() if "429" in code)
            if wanted and not refused:
                report.problems.append(f"{angle}: {wanted} sent, none refused")
        if size.reads and not any("429" in c for c in report.answers.get("reads", {})):
            report.problems.append(f"reads: {size.reads} sent, none refused")
    return report


async def first_account(http: httpx.AsyncClient, report: FloodReport, tag: str) -> str | None:
    reply = await http.post("/api/accounts", json={"name": f"{tag} host"})
    report.count("accounts", reply)
    return str(reply.json()["token"]) if reply.status_code == 201 else None


async def accounts(http: httpx.AsyncClient, report: FloodReport, n: int, tag: str) -> None:
    for k in range(n):
        report.count("accounts", await http.post("/api/accounts", json={"name": f"{tag} {k}"}))


async def tables(http: httpx.AsyncClient, report: FloodReport, n: int, token: str | None) -> None:
    if n and token is None:
        report.problems.append("tables: no account to open them with")
        return
    body = {"game": "tally", "seats": 2, "public": True}
    bearer = {"authorization": f"Bearer {token}"}
    for _ in range(n):
        report.count("tables", await http.post("/api/lobbies", json=body, headers=bearer))


async def reads(http: httpx.AsyncClient, report: FloodReport, n: int) -> None:
    for k in range(n):
        path = ("/api/matches", "/api/matches/1/state", "/api/matches/1/events")[k % 3]
        report.count("reads", await http.get(path))


async def silent_sockets(base: str, address: str, report: FloodReport, size: FloodSize) -> None:
    """Lobby sockets that never say hello: each must be refused (4429) or closed (4408)."""
    url = base.replace("http://", "ws://") + "/ws/lobby"

    async def one() -> None:
        try:
            async with asyncio.timeout(size.deadline_s + 10):
                ws = await websockets.connect(url, additional_headers={"x-forwarded-for": address})
                with contextlib.suppress(websockets.ConnectionClosed):
                    async with asyncio.timeout(size.deadline_s):
                        async for _ in ws:
                            pass
                code = ws.close_code
                await ws.close()
        except (OSError, TimeoutError, websockets.WebSocketException) as failure:
            report.problems.append(f"silent socket: {failure!r}"[:200])
            return
        report.socket_closes[str(code)] += 1
        if code not in (CLOSE_CROWDED, CLOSE_NO_HELLO):
            report.problems.append(f"silent socket: left open or closed {code}")

    await asyncio.gather(*(one() for _ in range(size.silent_sockets)))


async def slowloris(base: str, report: FloodReport, size: FloodSize) -> None:
    """Connections that send part of a request head, a header line now and then, and never
    finish it: each must be closed within ``deadline_s``."""
    host, port = base.removeprefix("http://").rsplit(":", 1)

    async def one() -> None:
        started = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(host, int(port))
        except OSError as failure:
            report.problems.append(f"slowloris: {failure!r}")
            return
        try:
            writer.write(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
            async with asyncio.timeout(size.deadline_s):
                while True:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(0.5):
                            if not await reader.read(4096):
                                break  # the server closed it
                    writer.write(b"X-Slow: 1\r\n")
            report.slowloris_closed_s.append(time.monotonic() - started)
        except TimeoutError:
            report.problems.append(f"slowloris: still open after {size.deadline_s} s")
        except OSError:
            report.slowloris_closed_s.append(time.monotonic() - started)  # reset: closed
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(size.slowloris)))


def report_json(report: FloodReport) -> dict[str, Any]:
    return {
        "answers": {k: dict(v) for k, v in report.answers.items()},
        "socket_closes": dict(report.socket_closes),
        "slowloris_closed": len(report.slowloris_closed_s),
        "slowloris_slowest_s": round(max(report.slowloris_closed_s, default=0.0), 2),
        "problems": report.problems[:5],
    }


def flood_env(hello_s: float = 2.0, header_s: float = 2.0) -> dict[str, str]:
    """Server settings under which a small flood meets every limit quickly."""
    return {
        "RAMPART_HELLO_TIMEOUT_S": str(hello_s),
        "RAMPART_HEADER_TIMEOUT_S": str(header_s),
    }
