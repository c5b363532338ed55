"""Logins and registrations: throttled per name and per address (429, ``Retry-After``), and the
same password work for an unknown name as for a known one (counted with a spy, not timed)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

import app.security
from app.__main__ import migrate
from app.accounts.guard import AccountGuard
from app.accounts.throttle import address_key
from app.api import deps
from app.api.errors import install_error_handlers
from app.api.routes import accounts
from app.config import Settings
from app.db.engine import create_engine, create_sessionmaker
from app.ops.ratelimits import EdgeLimits, RateLimits, Rule, TooMany, bucket_rate
from app.security import PasswordsBusy, PasswordWorkers


def test_a_token_bucket_setting_is_its_burst_in_the_time_it_takes_to_refill() -> None:
    assert bucket_rate(5, 5) == "5/60 seconds"
    assert bucket_rate(10, 5) == "10/120 seconds"
    assert bucket_rate(20, 20) == "20/60 seconds"


async def test_limits_refuse_past_the_burst_and_a_refused_attempt_counts_nowhere() -> None:
    limits = RateLimits()  # this process's memory, as without Redis
    by_name = Rule("names", bucket_rate(2, 6), "auth/rate_limited", "slow down")
    by_address = Rule("addresses", bucket_rate(3, 60), "auth/rate_limited", "slow down")

    async def attempt(name: str, address: str) -> None:
        await limits.hit_all((by_name, name), (by_address, address))

    try:
        await attempt("ada", "10.0.0.1")
        await attempt("ada", "10.0.0.1")
        with pytest.raises(TooMany) as refused:
            await attempt("ada", "10.0.0.1")  # ada's two are spent
        assert refused.value.code == "auth/rate_limited" and refused.value.status == 429
        assert int(refused.value.headers["Retry-After"]) >= 1
        await attempt("bob", "10.0.0.1")  # another name, same address: its third
        with pytest.raises(TooMany):
            await attempt("cy", "10.0.0.1")  # the address is spent
        # The refusal took nothing from cy: two attempts left from another address.
        await attempt("cy", "10.0.0.2")
        await attempt("cy", "10.0.0.2")
        with pytest.raises(TooMany):
            await attempt("cy", "10.0.0.3")
    finally:
        await limits.close()


def test_an_ipv6_host_is_one_address() -> None:
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:7") == "2001:db8::/64"
    assert address_key("2001:db8:0:1::1") != address_key("2001:db8::1")
    assert address_key("::ffff:10.0.0.1") == address_key("10.0.0.1") == "10.0.0.1"


async def test_checks_run_on_the_argon2_threads_and_a_full_queue_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: list[str] = []
    real = app.security.verify_password

    def spy(password_hash: str, password: str) -> bool:
        threads.append(threading.current_thread().name)
        return real(password_hash, password)

    monkeypatch.setattr(app.security, "verify_password", spy)
    workers = PasswordWorkers(workers=1, queue=1)
    try:
        stored = await workers.hash("a password")
        # Three at once: one running, one waiting, the third refused at once.
        results = await asyncio.gather(
            *(workers.check(stored, guess) for guess in ("a password", "no", "no")),
            return_exceptions=True,
        )
    finally:
        workers.close()
    assert results[:2] == [True, False]
    assert isinstance(results[2], PasswordsBusy) and results[2].status == 503
    assert results[2].code == "server/busy" and results[2].headers == {"Retry-After": "1"}
    assert threads and all(name.startswith("argon2") for name in threads)
    assert workers.in_flight == 0


@pytest.fixture
def database(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path}/rampart.db"
    migrate(url)
    return url


def given(value: Any) -> Callable[[], Awaitable[Any]]:
    """A dependency that gives ``value``."""

    async def dependency() -> Any:
        return value

    return dependency


@asynccontextmanager
async def in_process(database: str, **settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    """The accounts routes in this process (so a spy sees their calls), given the services
    they depend on (those of ``create_app`` are all started by its lifespan)."""
    server = FastAPI()
    install_error_handlers(server)
    server.include_router(accounts.router)
    config = Settings(database_url=database, **settings)
    engine = create_engine(database)
    sessionmaker = create_sessionmaker(engine)
    guard = AccountGuard(config)
    limits = EdgeLimits(config)

    async def session() -> AsyncIterator[AsyncSession]:
        async with sessionmaker() as db:
            yield db

    server.dependency_overrides.update(
        {
            deps.get_settings: given(config),
            deps.get_session: session,
            deps.get_account_guard: given(guard),
            deps.get_limits: given(limits),
        }
    )
    transport = httpx.ASGITransport(app=server)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://rampart") as client:
            yield client
    finally:
        guard.close()
        await limits.close()
        await engine.dispose()


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests count checks and refusals, not time: argon2 at its lightest parameters."""
    light = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
    monkeypatch.setattr(app.security, "hasher", light)


@pytest.fixture
def verifications(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every argon2 verification the server makes, by the hash it checks against."""
    made: list[str] = []
    real = app.security.verify_password

    def spy(password_hash: str, password: str) -> bool:
        made.append(password_hash)
        return real(password_hash, password)

    monkeypatch.setattr(app.security, "verify_password", spy)
    yield made


async def test_unknown_names_and_guests_cost_one_verification_like_a_known_name(
    database: str, verifications: list[str]
) -> None:
    async with in_process(database) as client:
        made = await client.post("/api/accounts", json={"name": "Known", "password": "p" * 12})
        assert made.status_code == 201
        guest = await client.post("/api/accounts", json={"name": "Just A Guest"})
        assert guest.status_code == 201
        counts = []
        for name in ("Known", "Nobody At All", "Just A Guest", "KNOWN"):
            before = len(verifications)
            reply = await client.post("/api/sessions", json={"name": name, "password": "wrong!"})
            assert reply.status_code == 401
            assert reply.json()["error"]["code"] == "auth/bad_credentials"
            counts.append(len(verifications) - before)
        assert counts == [1, 1, 1, 1]
        right = await client.post("/api/sessions", json={"name": " known ", "password": "p" * 12})
        assert right.status_code == 200 and right.json()["account"]["name"] == "Known"
    # Unknown names and guests were checked against one dummy hash with the real parameters.
    dummies = {verifications[1], verifications[2]}
    assert len(dummies) == 1 and verifications[0] != verifications[1]
    assert verifications[0].split("$")[:4] == verifications[1].split("$")[:4]


async def test_logins_are_limited_per_name_and_per_address(database: str) -> None:
    limits = {"login_name_burst": 2, "login_address_burst": 4, "login_address_per_min": 1}
    async with in_process(database, **limits) as client:
        await client.post("/api/accounts", json={"name": "Target", "password": "p" * 12})

        async def log_in(name: str) -> httpx.Response:
            return await client.post("/api/sessions", json={"name": name, "password": "nope"})

        assert [(await log_in("Target")).status_code for _ in range(2)] == [401, 401]
        refused = await log_in("tArGeT")  # the same name, written another way
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "auth/rate_limited"
        assert int(refused.headers["Retry-After"]) >= 1
        # Two more names from the same address spend its four tokens; the fifth is refused.
        assert (await log_in("Other")).status_code == 401
        assert (await log_in("Third")).status_code == 401
        spent = await log_in("Fourth")
        assert spent.status_code == 429 and int(spent.headers["Retry-After"]) >= 30


async def test_registrations_with_a_password_are_limited_per_address(database: str) -> None:
    async with in_process(database, register_address_burst=2) as client:
        for name in ("First", "Second"):
            body = {"name": name, "password": "p" * 12}
            assert (await client.post("/api/accounts", json=body)).status_code == 201
        third = await client.post("/api/accounts", json={"name": "Third", "password": "p" * 12})
        assert third.status_code == 429 and "Retry-After" in third.headers
        assert third.json()["error"]["code"] == "auth/rate_limited"
        # A guest costs no password hash and is not held back by it.
        assert (await client.post("/api/accounts", json={"name": "Guest"})).status_code == 201
