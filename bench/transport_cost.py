"""The websocket transport alone, side by side: Rampart's uvicorn ``FrameProtocol`` against picows.

What a move asks of the transport, with no session behind it: a seat's action frame comes in
(masked, as clients send), and the server answers the mover with two text frames (an ``ack``
and a patch) and each of the table's three other seats with one (the patch). That is the
peer workload's move (``../shared/peers``: 4-seat tables), minus the game, the log and the
views, so the server's CPU per move here is the transport's share of a move and nothing else.

The variants, each a server process of its own on a fresh port, run interleaved:
- ``uvicorn``: how ``python -m app`` serves a match socket: uvicorn with uvloop, the same
  ``HeaderDeadlineProtocol`` and ``FrameProtocol``, a Starlette websocket route, and the fast
  lane (``FrameProtocol.on_text``); what one move sends a socket leaves in one
  ``write_texts`` (one ``transport.write``), as ``Peer`` does once per loop turn.
- ``picows``: picows's Cython server (``ws_create_server``), one ``WSTransport.send`` per
  message (its own framing and a direct ``send`` system call).
- ``picows-joined``: picows for reading, and the frames of one move to one socket joined into
  one write of the underlying transport, as ``Peer`` batches them.
- ``granian``: Granian's Rust server (one worker, single-threaded runtime, uvloop) through its
  own interface, RSGI: a task per socket awaits ``receive()``, and a move awaits
  ``send_str`` once per message (its CPU is the worker's and the supervisor's together).

The load is a separate process of picows clients (cheap, compiled) so that the server's
figure is its own: ``--tables`` tables of four sockets, a move every ``--period-ms`` per table.
Printed per run: moves a second, the server's CPU per move (from ``/proc``), the round trip a
mover sees to its ack (p50/p99), and the server's RSS per open socket (its growth from idle).

    .venv/bin/python bench/transport_cost.py                      # 3 rounds, 1,000 tables
    .venv/bin/python bench/transport_cost.py --tables 500 --period-ms 250 --rounds 5
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead.
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import asyncio
import json
import os
import subprocess
import time
from typing import Any

from app.realtime.frames import text_frame
from bench.loadgen.probes import cpu_seconds, free_port, memory_mb, percentile

VARIANTS = ("uvicorn", "picows", "picows-joined", "granian")
# A move's messages, about the peer workload's sizes: the ack, and a patch per seat.
ACK = b'{"type":"ack","client_seq":%d,"version":%d}'
PATCH = (
    b'{"type":"patch","version":%d,"at_ms":1234567,"ops":[{"op":"replace","path":"/turn",'
    b'"value":2},{"op":"replace","path":"/cells/3","value":1}],"events":[{"type":"moved",'
    b'"seat":1,"cell":3}],"legal":[{"type":"move","cell":0},{"type":"move","cell":1},'
    b'{"type":"move","cell":2}]}'
)
ACTION = b'{"type":"action","client_seq":%d,"action":{"type":"move","cell":3}}'


class Tables:
    """The server's side of the load: which sockets sit at which table, and a move's sends."""

    def __init__(self) -> None:
        self.seats: dict[int, list[Any]] = {}
        self.version = 0

    def join(self, table: int, sender: Any) -> None:
        self.seats.setdefault(table, []).append(sender)

    def leave(self, table: int, sender: Any) -> None:
        seats = self.seats.get(table, [])
        if sender in seats:
            seats.remove(sender)

    def move(self, table: int, mover: Any, client_seq: int) -> None:
        """Answer one action: ack and patch to the mover, the patch to everyone else."""
        self.version += 1
        patch = PATCH % self.version
        for seat in self.seats.get(table, ()):
            if seat is mover:
                seat.send_move([ACK % (client_seq, self.version), patch])
            else:
                seat.send_move([patch])


def client_seq_of(text: bytes | str) -> int:
    if isinstance(text, str):
        text = text.encode()
    start = text.index(b'"client_seq":') + 13
    return int(text[start : text.index(b",", start)])


# ---- the servers ----------------------------------------------------------------------


def serve_uvicorn(port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from app.realtime.frames import SCOPE_KEY, FrameProtocol
    from app.realtime.headers import HeaderDeadlineProtocol

    tables = Tables()

    class Seat:
        def __init__(self, frames: FrameProtocol) -> None:
            self.frames = frames

        def send_move(self, texts: list[bytes]) -> None:
            if self.frames.open_for_frames:
                self.frames.write_texts([text.decode() for text in texts])

    async def table_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        frames: FrameProtocol = websocket.scope["extensions"][SCOPE_KEY]
        table = int(websocket.path_params["table"])
        seat = Seat(frames)
        tables.join(table, seat)
        frames.on_text = lambda text: tables.move(table, seat, client_seq_of(text))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
        except WebSocketDisconnect:
            return
        finally:
            tables.leave(table, seat)

    app = Starlette(routes=[WebSocketRoute("/t/{table:int}", table_socket)])
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        loop="uvloop",
        ws=FrameProtocol,
        http=HeaderDeadlineProtocol.with_timeout(10),
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="off",
    )


def serve_picows(port: int, joined: bool) -> None:
    import uvloop
    from picows import WSListener, WSMsgType, WSTransport, WSUpgradeRequest, ws_create_server

    tables = Tables()

    class Seat(WSListener):
        def __init__(self, table: int) -> None:
            self.table = table
            self.transport: WSTransport | None = None

        def on_ws_connected(self, transport: WSTransport) -> None:
            self.transport = transport
            tables.join(self.table, self)

        def on_ws_disconnected(self, transport: WSTransport) -> None:
            tables.leave(self.table, self)

        def on_ws_frame(self, transport: WSTransport, frame: Any) -> None:
            if frame.msg_type == WSMsgType.TEXT:
                text = frame.get_payload_as_utf8_text()
                tables.move(self.table, self, client_seq_of(text))
            elif frame.msg_type == WSMsgType.CLOSE:
                transport.send_close(frame.get_close_code())
                transport.disconnect()

        def send_move(self, texts: list[bytes]) -> None:
            transport = self.transport
            if transport is None:
                return
            if joined:
                transport.underlying_transport.write(b"".join(map(text_frame, texts)))
            else:
                for text in texts:
                    transport.send(WSMsgType.TEXT, text)

    def route(request: WSUpgradeRequest) -> Seat | None:
        path = request.path.decode() if isinstance(request.path, bytes) else request.path
        if not path.startswith("/t/"):
            return None
        return Seat(int(path[3:]))

    async def main() -> None:
        server = await ws_create_server(route, "127.0.0.1", port, use_aiofastnet=False)
        await server.serve_forever()

    uvloop.run(main())


# Granian imports its application by name: the RSGI application is this module's ``rsgi_app``.
granian_tables = Tables()


class GranianSeat:
    def __init__(self, transport: Any) -> None:
        self.transport = transport
        self.pending: list[str] = []

    def send_move(self, texts: list[bytes]) -> None:
        self.pending.extend(text.decode() for text in texts)


async def rsgi_app(scope: Any, protocol: Any) -> None:
    """RSGI: websocket ``/t/{table}``; a move's messages are awaited right after it."""
    if scope.proto != "ws":
        protocol.response_empty(404, [])
        return
    transport = await protocol.accept()
    table = int(scope.path[3:])
    seat = GranianSeat(transport)
    granian_tables.join(table, seat)
    try:
        while True:
            message = await transport.receive()
            if message.kind == 0:  # close
                return
            if message.kind == 2:  # text
                granian_tables.move(table, seat, client_seq_of(message.data))
                for other in granian_tables.seats.get(table, ()):
                    texts, other.pending = other.pending, []
                    for text in texts:
                        await other.transport.send_str(text)
    except Exception:
        return
    finally:
        granian_tables.leave(table, seat)


def serve_granian(port: int) -> None:
    os.execv(
        sys.executable,
        [
            sys.executable, "-m", "granian", "--interface", "rsgi", "--host", "127.0.0.1",
            "--port", str(port), "--workers", "1", "--runtime-mode", "st", "--loop", "uvloop",
            "--no-log", "bench.transport_cost:rsgi_app",
        ],
    )  # fmt: skip


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Granian serves from a worker process)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found.extend(process_tree(int(child)))
    return found


def tree_cpu_seconds(pid: int) -> float:
    return sum(cpu_seconds(each) for each in process_tree(pid))


def tree_rss_mb(pid: int) -> float:
    return sum(memory_mb(each) for each in process_tree(pid))


# ---- the load ---------------------------------------------------------------------------


async def load(
    port: int, tables: int, period_ms: float, warmup_s: float, seconds: float
) -> dict[str, Any]:
    """Seat ``tables`` x 4 clients, then make moves; prints ``start`` and ``stop`` around the
    measured window and returns the moves made in it and the acks' round trips."""
    from picows import WSListener, WSMsgType, WSTransport, ws_connect

    sent_at: dict[int, float] = {}
    round_trips: list[float] = []
    counting = False
    moves = 0
    received = {"ack": 0, "patch": 0}

    class Client(WSListener):
        transport: WSTransport

        def on_ws_connected(self, transport: WSTransport) -> None:
            self.transport = transport

        def on_ws_frame(self, transport: WSTransport, frame: Any) -> None:
            if frame.msg_type != WSMsgType.TEXT:
                return
            payload = frame.get_payload_as_bytes()
            received["patch" if payload.startswith(b'{"type":"patch"') else "ack"] += 1
            if payload.startswith(b'{"type":"ack"'):
                started = sent_at.pop(client_seq_of(payload), None)
                if started is not None and counting:
                    round_trips.append((time.perf_counter() - started) * 1000)

    clients: list[list[Client]] = []
    for table in range(tables):
        seats: list[Client] = []
        for _ in range(4):
            _, client = await ws_connect(Client, f"ws://127.0.0.1:{port}/t/{table}")
            assert isinstance(client, Client)
            seats.append(client)
        clients.append(seats)

    sequence = 0

    async def play(table: int) -> None:
        nonlocal sequence, moves
        await asyncio.sleep(period_ms / 1000 * table / tables)  # spread the tables out
        turn = 0
        while True:
            sequence += 1
            sent_at[sequence] = time.perf_counter()
            clients[table][turn % 4].transport.send(WSMsgType.TEXT, ACTION % sequence)
            if counting:
                moves += 1
            turn += 1
            await asyncio.sleep(period_ms / 1000)

    players = [asyncio.create_task(play(table)) for table in range(tables)]
    await asyncio.sleep(warmup_s)
    print("start", flush=True)  # the parent reads the server's CPU at these two marks
    counting = True
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    counting = False
    print("stop", flush=True)
    elapsed = time.perf_counter() - started
    for player in players:
        player.cancel()
    for _ in range(50):  # the answers still on their way
        if received["ack"] == sequence and received["patch"] == 4 * sequence:
            break
        await asyncio.sleep(0.1)
    for seats in clients:
        for client in seats:
            client.transport.disconnect()
    ordered = sorted(round_trips)
    return {
        "moves": moves,
        "elapsed": elapsed,
        "p50_ms": percentile(ordered, 50),
        "p99_ms": percentile(ordered, 99),
        "sent": sequence,
        "acks": received["ack"],
        "patches": received["patch"],
    }


def one_run(variant: str, args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", variant, "--port", str(port)],
        cwd=Path(__file__).resolve().parent.parent,
    )
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                import socket

                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        time.sleep(1)
        idle_rss = tree_rss_mb(server.pid)
        loader = subprocess.Popen(
            [sys.executable, __file__, "--load", str(port), *loader_args(args)],
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parent.parent,
        )
        # The server's CPU over the measured window only: read it when the load says so.
        assert loader.stdout is not None
        marks: list[float] = []
        result: dict[str, Any] = {}
        for line in loader.stdout:
            text = line.decode().strip()
            if text in ("start", "stop"):
                marks.append(tree_cpu_seconds(server.pid))
                busy_rss = tree_rss_mb(server.pid)
            elif text.startswith("{"):
                result = json.loads(text)
        loader.wait()
        loader.stdout.close()
        cpu = marks[1] - marks[0]
        return {
            "variant": variant,
            "moves_per_s": round(result["moves"] / result["elapsed"], 1),
            "server_cpu_us_per_move": round(cpu / max(1, result["moves"]) * 1e6, 1),
            "p50_ms": result["p50_ms"],
            "p99_ms": result["p99_ms"],
            "answered": result["acks"] == result["sent"] == result["patches"] // 4,
            "kib_per_socket": round((busy_rss - idle_rss) * 1024 / (4 * args.tables), 1),
            "load_avg": os.getloadavg()[0],
        }
    finally:
        server.terminate()
        server.wait(10)


def loader_args(args: argparse.Namespace) -> list[str]:
    return [
        "--tables", str(args.tables), "--period-ms", str(args.period_ms),
        "--warmup", str(args.warmup), "--seconds", str(args.seconds),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", choices=VARIANTS, help=argparse.SUPPRESS)
    parser.add_argument("--load", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--period-ms", type=float, default=500)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args()
    if args.serve == "uvicorn":
        serve_uvicorn(args.port)
    elif args.serve == "granian":
        serve_granian(args.port)
    elif args.serve is not None:
        serve_picows(args.port, joined=args.serve == "picows-joined")
    elif args.load is not None:
        import uvloop

        result = uvloop.run(load(args.load, args.tables, args.period_ms, args.warmup, args.seconds))
        print(json.dumps(result), flush=True)
    else:
        for _ in range(args.rounds):
            for variant in args.variants.split(","):
                print(json.dumps(one_run(variant, args)), flush=True)


if __name__ == "__main__":
    main()
