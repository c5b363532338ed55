"""Direct frames: the wire encoding, one write per loop turn, back-pressure and close."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.frames import Opcode
from websockets.protocol import Protocol, Side, State

from app.config import Settings
from app.realtime.frames import SCOPE_KEY, FrameFlusher, text_frame
from app.realtime.gateway import _Conversation
from app.realtime.peer import Peer


def decoded(data: bytes) -> list[str]:
    """The text messages a client's websockets stack reads from ``data``."""
    client = Protocol(Side.CLIENT, state=State.OPEN, max_size=None)
    client.receive_data(data)
    frames = client.events_received()
    assert all(frame.opcode is Opcode.TEXT and frame.fin for frame in frames)
    return [bytes(frame.data).decode() for frame in frames]


@pytest.mark.parametrize("size", [0, 5, 125, 126, 300, 65535, 65536, 200_000])
def test_a_text_frame_reads_back_as_the_same_message(size: int) -> None:
    message = ("é" * size)[:size] if size < 100 else "x" * size
    assert decoded(text_frame(message.encode())) == [message]


class FakeFrames:
    """What ``Peer`` needs of ``FrameProtocol``: writes recorded, pausable, closable."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.paused = False
        self.open_for_frames = True
        self.on_writable: Any = None

    def write_texts(self, texts: list[str]) -> None:
        self.writes.append(b"".join(text_frame(text.encode()) for text in texts))

    def resume(self) -> None:
        self.paused = False
        self.on_writable()


class FakeSocket:
    def __init__(self, frames: FakeFrames) -> None:
        self.scope = {"extensions": {SCOPE_KEY: frames}}
        self.closed_with: int | None = None

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code


def peer_on(frames: FakeFrames, outbox_limit: int = 100) -> tuple[Peer, FakeSocket]:
    socket = FakeSocket(frames)
    return Peer(socket, outbox_limit), socket  # type: ignore[arg-type]


async def test_messages_queued_in_one_loop_turn_leave_in_one_write_in_order() -> None:
    frames = FakeFrames()
    peer, _ = peer_on(frames)
    peer.send_text('{"type":"ack"}')
    peer.send_numbered('{"type":"patch","version":7}', 7)
    peer.ping()
    assert frames.writes == []  # nothing leaves before the current turn ends
    await asyncio.sleep(0)
    assert len(frames.writes) == 1
    assert decoded(frames.writes[0]) == [
        '{"type":"ack"}',
        '{"type":"patch","version":7}',
        '{"type":"ping","nonce":1}',
    ]
    assert peer.sends.at(7) is not None  # S_ref stamped when it left


async def test_a_pong_answers_a_ping_once_and_a_full_socket_holds_the_ping() -> None:
    frames = FakeFrames()
    peer, _ = peer_on(frames)
    peer.ping()
    await asyncio.sleep(0)
    assert [decoded(write) for write in frames.writes] == [['{"type":"ping","nonce":1}']]
    assert peer.pong(1, peer.clock() + 5.0) is True  # its send time was recorded
    assert peer.rtt_min_ms is not None and peer.rtt_min_ms >= 5.0
    assert peer.pong(1, peer.clock() + 5.0) is False  # a repeat answers nothing
    frames.paused = True  # a full socket: the ping waits in the outbox like anything else
    peer.ping()
    await asyncio.sleep(0)
    assert len(frames.writes) == 1
    frames.resume()
    await asyncio.sleep(0)
    assert decoded(frames.writes[1]) == ['{"type":"ping","nonce":2}']


async def test_run_now_flushes_at_once_and_a_match_without_races_stamps_nothing() -> None:
    frames, flusher = FakeFrames(), FrameFlusher()
    socket = FakeSocket(frames)
    peer = Peer(socket, 100, flusher=flusher)  # type: ignore[arg-type]
    peer.measure_links = False
    peer.send_numbered('{"type":"patch","version":3}', 3)
    flusher.run_now()  # what the action log does right after a commit's broadcasts
    assert decoded(frames.writes[0]) == ['{"type":"patch","version":3}']
    assert peer.sends.at(3) is None  # no grab races: nothing reads S_ref
    await asyncio.sleep(0)  # the callback scheduled before finds nothing left to do
    assert len(frames.writes) == 1


async def test_a_paused_socket_keeps_its_messages_until_it_drains() -> None:
    frames = FakeFrames()
    peer, _ = peer_on(frames)
    frames.paused = True
    for n in range(5):
        peer.send_text(f'{{"n":{n}}}')
    await asyncio.sleep(0)
    assert frames.writes == []
    frames.resume()
    await asyncio.sleep(0)
    assert [decoded(write) for write in frames.writes] == [[f'{{"n":{n}}}' for n in range(5)]]


async def test_a_client_that_stops_reading_is_closed_1008_and_its_backlog_dropped() -> None:
    frames = FakeFrames()
    peer, socket = peer_on(frames, outbox_limit=10)
    writer = asyncio.create_task(peer.write_loop())
    frames.paused = True
    for n in range(11):
        peer.send_text(f'{{"n":{n}}}')
    await asyncio.wait_for(writer, 1)
    assert socket.closed_with == 1008
    assert frames.writes == []


async def test_a_close_lets_what_was_queued_before_it_leave_first() -> None:
    frames = FakeFrames()
    peer, socket = peer_on(frames)
    writer = asyncio.create_task(peer.write_loop())
    peer.send_text('{"type":"error"}')
    peer.close(4404)
    await asyncio.wait_for(writer, 1)
    assert decoded(b"".join(frames.writes)) == ['{"type":"error"}']
    assert socket.closed_with == 4404


async def test_pongs_that_answer_our_pings_are_not_charged_to_the_message_budget() -> None:
    frames = FakeFrames()
    peer, _ = peer_on(frames)
    settings = Settings(rate_per_s=0.001, rate_burst=2)
    talk = _Conversation(peer, None, settings)  # type: ignore[arg-type]  # pongs need no session
    for nonce in range(1, 6):
        peer.ping()
        await asyncio.sleep(0)  # it leaves (and is stamped) after this turn of the loop
        talk.handle(f'{{"type":"pong","nonce":{nonce}}}', peer.clock() + 3.0)
    assert talk.limiter.refused == 0
    assert peer.meter.stats().samples == 5
    # Pongs for no ping of ours are ordinary messages: the third one exceeds the burst.
    for _ in range(3):
        talk.handle('{"type":"pong","nonce":999}', peer.clock())
    assert talk.limiter.refused == 1
    await asyncio.sleep(0)
    assert '"code":"rate/limited"' in frames.writes[-1].decode(errors="replace")
