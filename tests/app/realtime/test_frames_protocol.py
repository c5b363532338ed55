"""``FrameProtocol`` on uvicorn's real websockets protocol: the direct read path keeps order."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import Opcode
from websockets.protocol import Protocol, Side, State

from app.realtime.frames import SCOPE_KEY, FrameProtocol

HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False

    def write(self, data: Any) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name)


def client_frames(*messages: str | bytes) -> bytes:
    """Masked frames as a browser sends them."""
    client = Protocol(Side.CLIENT, state=State.OPEN)
    for message in messages:
        if isinstance(message, str):
            client.send_text(message.encode())
        else:
            client.send_binary(message)
    return b"".join(client.data_to_send())


def server_texts(data: bytes) -> list[str]:
    reader = Protocol(Side.CLIENT, state=State.OPEN)
    reader.receive_data(data)
    return [bytes(f.data).decode() for f in reader.events_received() if f.opcode is Opcode.TEXT]


async def connect(app: Any, handshake: bytes = HANDSHAKE) -> tuple[FrameProtocol, Transport]:
    """``FrameProtocol`` serving ``app`` on a fake transport, after the upgrade request."""
    config = Config(app=app, ws=FrameProtocol, ws_per_message_deflate=False, lifespan="off")
    config.load()
    protocol = FrameProtocol(config=config, server_state=ServerState(), app_state={})
    transport = Transport()
    protocol.connection_made(transport)
    protocol.data_received(handshake)
    await asyncio.sleep(0.01)
    return protocol, transport


async def test_text_goes_straight_to_the_handler_once_set_and_order_is_kept() -> None:
    """Before the handler is set, messages queue for the app; after, text frames reach the
    handler directly, except while anything is still queued (then they queue behind it);
    binary frames always go to the app."""
    seen: list[str] = []
    by_app: list[Any] = []
    handler_set = asyncio.Event()
    release = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        frames: FrameProtocol = scope["extensions"][SCOPE_KEY]
        by_app.append((await receive())["text"])  # "one" came through uvicorn's queue
        frames.on_text = seen.append
        handler_set.set()
        await release.wait()
        while len(by_app) < 3:
            message = await receive()
            by_app.append(message.get("text", message.get("bytes")))
        frames.write_texts(["done"])

    protocol, transport = await connect(app)
    protocol.data_received(client_frames("one"))
    await asyncio.wait_for(handler_set.wait(), 1)
    protocol.data_received(client_frames("two", "three"))
    assert seen == ["two", "three"]  # straight to the handler, in order
    protocol.data_received(client_frames(b"\x01"))  # binary: to the app's queue
    protocol.data_received(client_frames("four"))  # queued behind it, not overtaking it
    assert seen == ["two", "three"]
    release.set()
    await asyncio.sleep(0.05)
    assert by_app == ["one", b"\x01", "four"]
    protocol.data_received(client_frames("five"))  # the queue is empty again
    assert seen == ["two", "three", "five"]
    assert server_texts(bytes(transport.written).split(b"\r\n\r\n", 1)[1]) == ["done"]
    transport.close()
    protocol.connection_lost(None)


async def open_direct(
    handshake: bytes = HANDSHAKE,
) -> tuple[FrameProtocol, Transport, list[str], list[Any]]:
    """A connection whose app sets the direct handler as soon as it has accepted."""
    seen: list[str] = []
    by_app: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        scope["extensions"][SCOPE_KEY].on_text = seen.append
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            by_app.append(message.get("text", message.get("bytes")))

    protocol, transport = await connect(app, handshake)
    return protocol, transport, seen, by_app


def control_frame(opcode: int, payload: bytes) -> bytes:
    """A masked control frame (mask of zeros: the payload reads as is)."""
    return bytes((0x80 | opcode, 0x80 | len(payload))) + b"\0\0\0\0" + payload


async def test_frames_cut_anywhere_arrive_whole_and_control_frames_still_work() -> None:
    protocol, transport, seen, by_app = await open_direct()
    long_text = "x" * 300  # a 16-bit length header
    stream = client_frames("a", long_text) + control_frame(0x9, b"hi") + client_frames("b")
    for cut in range(len(stream)):  # every place a TCP segment could end
        protocol.data_received(stream[:cut])
        protocol.data_received(stream[cut:])
    assert seen == ["a", long_text, "b"] * len(stream)
    assert by_app == []
    assert protocol._splitting is True  # read here, not by the websockets parser
    pongs = bytes(transport.written).split(b"\r\n\r\n", 1)[1]
    assert pongs.count(b"\x8a\x02hi") == len(stream)  # each ping answered by the parser
    protocol.data_received(control_frame(0x8, b"\x03\xe8"))  # close 1000
    await asyncio.sleep(0.01)
    assert transport.closed or protocol.close_sent
    protocol.connection_lost(None)


async def test_fragments_bad_utf8_and_big_frames_go_through_the_parser() -> None:
    protocol, transport, seen, _ = await open_direct()
    first = bytes((0x01, 0x83)) + b"\0\0\0\0" + b"abc"  # text, not final
    last = bytes((0x80, 0x83)) + b"\0\0\0\0" + b"def"  # continuation, final
    protocol.data_received(first + last + client_frames("g"))
    assert seen == ["abcdef", "g"]
    big = "y" * 70_000  # a 64-bit length: the parser takes it and everything after
    protocol.data_received(client_frames(big, "h"))
    assert seen == ["abcdef", "g", big, "h"]
    protocol.data_received(bytes((0x81, 0x82)) + b"\0\0\0\0" + b"\xff\xfe")  # not UTF-8
    await asyncio.sleep(0.01)
    assert seen == ["abcdef", "g", big, "h"]
    assert b"\x88\x02\x03\xef" in bytes(transport.written)  # closed 1007 by uvicorn's parser
    protocol.connection_lost(None)


async def test_a_client_that_sends_frames_with_its_request_is_read_by_the_parser() -> None:
    protocol, _, seen, by_app = await open_direct(HANDSHAKE + client_frames("early"))
    assert protocol._splitting is None or protocol._splitting is False
    protocol.data_received(client_frames("later"))
    assert protocol._splitting is False
    await asyncio.sleep(0.01)
    assert by_app + seen == ["early", "later"]
    protocol.connection_lost(None)
