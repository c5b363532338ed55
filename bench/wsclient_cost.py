"""CPU per message of the relay and load-generator websocket client (``app.cluster.wsclient``).

A ``websockets`` server in another process sends ``--messages`` text messages of ``--size``
bytes, then takes as many from the client (sent ``--batch`` per loop turn); this process times its
own CPU for each direction and prints microseconds per message received and per message sent.
``--client FILE`` measures another version of the module (a copy of an older commit's file,
say) against the same server.

    .venv/bin/python bench/wsclient_cost.py [--messages 100000] [--size 120] [--client FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import multiprocessing
import socket
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def serve(port: int, ready: Any) -> None:
    """The server process: on ``send N SIZE`` it sends N messages, then ``sent``; on
    ``take N`` it counts N messages from the client, then answers ``taken``."""
    from websockets.asyncio.server import ServerConnection
    from websockets.asyncio.server import serve as ws_serve

    async def handler(connection: ServerConnection) -> None:
        async for command in connection:
            words = str(command).split()
            if words[0] == "send":
                count, size = int(words[1]), int(words[2])
                body = "x" * size
                for _ in range(count):
                    await connection.send(body)
                await connection.send("sent")
            elif words[0] == "take":
                for _ in range(int(words[1])):
                    await connection.recv()
                await connection.send("taken")

    async def main() -> None:
        async with ws_serve(handler, "127.0.0.1", port, max_size=None, compression=None):
            ready.set()
            await asyncio.Future()

    asyncio.run(main())


def load_client(path: str | None) -> ModuleType:
    if path is None:
        from app.cluster import wsclient

        return wsclient
    spec = importlib.util.spec_from_file_location("wsclient_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def measure(
    port: int, client_module: ModuleType, count: int, size: int, batch: int
) -> dict[str, float]:
    received = 0
    done = asyncio.Event()

    def on_text(text: str) -> None:
        nonlocal received
        if text in ("sent", "taken"):
            done.set()
        else:
            received += 1

    client = await client_module.connect(f"ws://127.0.0.1:{port}/", on_text)
    await asyncio.sleep(0.2)
    before = time.process_time()
    client.send_text(f"send {count} {size}")
    await done.wait()
    receiving = time.process_time() - before
    assert received == count, received
    done.clear()
    body = "y" * size
    before = time.process_time()
    client.send_text(f"take {count}")
    for start in range(0, count, batch):
        for _ in range(min(batch, count - start)):
            client.send_text(body)
        await asyncio.sleep(0)
    await done.wait()
    sending = time.process_time() - before
    await client.close()
    return {
        "received_us_per_message": round(receiving / count * 1e6, 2),
        "sent_us_per_message": round(sending / count * 1e6, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--size", type=int, default=120)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--client", default=None, help="a wsclient.py file to measure instead")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ready = multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(port, ready), daemon=True)
    server.start()
    try:
        ready.wait(10)
        module = load_client(args.client)
        figures = asyncio.run(measure(port, module, args.messages, args.size, args.batch))
    finally:
        server.terminate()
        server.join(5)
    print(json.dumps({"client": args.client or "app.cluster.wsclient", **figures}))


if __name__ == "__main__":
    main()
