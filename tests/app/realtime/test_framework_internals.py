"""The framework internals ``app.realtime.frames`` builds on are still there, as it uses them.

``FrameProtocol`` subclasses uvicorn's private sans-io websockets protocol and swaps the class
of its websockets ``ServerProtocol``; ``pyproject.toml`` pins both packages to the tested
range. When either moves, these tests name what changed instead of letting a match socket
fail at run time: the installed versions against the pins, every method ``frames.py``
overrides or calls with its parameters, every attribute it reads, and the one behaviour it
hooks (the scope an accepted upgrade hands the app). And the event loop uvicorn is told to run
is uvloop (``app.__main__.event_loop``), unless ``RAMPART_LOOP`` says otherwise.
"""

from __future__ import annotations

import asyncio
import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.server import ServerProtocol

from app.__main__ import event_loop
from app.realtime.frames import SCOPE_KEY, ClosingMidMessage, FrameProtocol

ROOT = Path(__file__).resolve().parents[3]

# Methods of uvicorn's protocol that FrameProtocol overrides or calls: their parameters.
UVICORN_METHODS = {
    "__init__": ["self", "config", "server_state", "app_state", "_loop"],
    "handle_connect": ["self", "event"],
    "data_received": ["self", "data"],
    "resume_writing": ["self"],
    "send_receive_event_to_app": ["self"],
    "handle_parser_exception": ["self"],
}
# Attributes of uvicorn's protocol that FrameProtocol reads or sets, with their types
# right after __init__ (None: set later, by connection_made / handle_connect).
UVICORN_ATTRIBUTES: dict[str, type | None] = {
    "conn": ServerProtocol,
    "writable": asyncio.Event,
    "queue": asyncio.Queue,
    "frames": list,
    "close_sent": bool,
    "disconnected": bool,
    "handshake_complete": bool,
    "curr_msg_data_type": str,
    "transport": None,
}
# websockets' ServerProtocol: what ClosingMidMessage overrides and what frames.py calls.
WEBSOCKETS_METHODS = {
    "recv_frame": ["self", "frame"],
    "send_close": ["self", "code", "reason"],
    "data_to_send": ["self"],
}


def pinned(name: str) -> Requirement:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for line in project["dependencies"]:
        requirement = Requirement(line)
        if requirement.name == name:
            return requirement
    raise AssertionError(f"{name} is not among pyproject.toml's dependencies")


@pytest.mark.parametrize("package", ["uvicorn", "websockets"])
def test_installed_version_is_inside_the_pinned_range(package: str) -> None:
    requirement = pinned(package)
    assert requirement.specifier, f"{package} has no pinned range in pyproject.toml"
    assert any(spec.operator in ("<", "<=", "==", "~=") for spec in requirement.specifier), (
        f"{package} is pinned without an upper bound: {requirement}"
    )
    installed = version(package)
    assert requirement.specifier.contains(installed, prereleases=True), (
        f"{package} {installed} is installed, outside the tested range {requirement}: "
        "re-check app/realtime/frames.py against its internals, then move the pin"
    )


def parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


@pytest.mark.parametrize(
    ("owner", "methods"),
    [
        (WebSocketsSansIOProtocol, UVICORN_METHODS),
        (ServerProtocol, WEBSOCKETS_METHODS),
    ],
)
def test_methods_keep_their_parameters(owner: type, methods: dict[str, list[str]]) -> None:
    changed = []
    for name, expected in methods.items():
        function = getattr(owner, name, None)
        if function is None:
            changed.append(f"{owner.__qualname__}.{name} is gone")
        elif parameters(function) != expected:
            changed.append(
                f"{owner.__qualname__}.{name}{inspect.signature(function)}, expected "
                f"({', '.join(expected)})"
            )
    assert not changed, "; ".join(changed)


def test_the_overrides_still_override_something() -> None:
    for name in ("handle_connect", "data_received", "resume_writing", "send_receive_event_to_app"):
        assert name in FrameProtocol.__dict__ and hasattr(WebSocketsSansIOProtocol, name), name
    assert "recv_frame" in ClosingMidMessage.__dict__


async def noop_app(scope: Any, receive: Any, send: Any) -> None:
    await receive()
    await send({"type": "websocket.close", "code": 1000})


class RecordingTransport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(
            name, default
        )

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


def new_protocol() -> FrameProtocol:
    config = Config(app=noop_app, ws=FrameProtocol, ws_per_message_deflate=False)
    config.load()
    return FrameProtocol(
        config=config, server_state=ServerState(), app_state={}, _loop=asyncio.get_running_loop()
    )


async def test_attributes_frames_reads_are_there_after_init() -> None:
    protocol = new_protocol()
    changed = []
    for name, kind in UVICORN_ATTRIBUTES.items():
        if not hasattr(protocol, name):
            changed.append(f"{name} is gone")
        elif kind is not None and not isinstance(getattr(protocol, name), kind):
            changed.append(f"{name} is a {type(getattr(protocol, name)).__name__}, not {kind}")
    assert not changed, "uvicorn's protocol changed: " + "; ".join(changed)
    assert isinstance(protocol.conn, ClosingMidMessage), "the connection's class swap failed"
    assert hasattr(protocol.conn, "current_size"), "websockets' Protocol.current_size is gone"
    assert hasattr(protocol.conn, "state"), "websockets' Protocol.state is gone"


async def test_an_accepted_upgrade_hands_the_app_the_protocol_in_its_scope() -> None:
    protocol = new_protocol()
    transport = RecordingTransport()
    protocol.connection_made(transport)
    protocol.data_received(
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    scope = getattr(protocol, "scope", None)
    assert scope is not None, "handle_connect no longer sets self.scope"
    assert scope["extensions"].get(SCOPE_KEY) is protocol, "the scope extension is missing"
    await asyncio.wait_for(asyncio.gather(*protocol.tasks), 5)  # the app closes: 403
    assert transport.written and transport.written[0].startswith(b"HTTP/1.1 403")
    protocol.connection_lost(None)


def test_the_server_runs_on_uvloop_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAMPART_LOOP", raising=False)
    factory = Config(app=noop_app, loop=event_loop()).get_loop_factory()
    assert factory is not None and factory.__module__ == "uvloop", factory
    monkeypatch.setenv("RAMPART_LOOP", "asyncio")
    assert event_loop() == "asyncio"
