"""A guest becomes a registered player: same account, name and history, a password to log in
with; an account already registered, a short password and no token are refused."""

from __future__ import annotations

from tests.app.support import Api, Server

REGISTER = "/api/accounts/me/register"


def code(reply: object) -> str:
    return str(reply.json()["error"]["code"])  # type: ignore[attr-defined]


async def test_a_guest_keeps_name_and_matches_and_logs_in_with_the_new_password(
    api: Api, shared_server: Server
) -> None:
    token = await api.guest("Gwen Upgrade")
    me = (await api.get("/api/accounts/me", token)).json()
    assert me["guest"] is True
    other = await api.guest("Gwen Rival")
    match_id = await api.table("tally", [token, other], options={"target": 5})

    short = await api.post(REGISTER, token, {"password": "short"})
    assert short.status_code == 422 and code(short) == "request/invalid"
    assert (await api.post(REGISTER, None, {"password": "long enough"})).status_code == 401

    upgraded = await api.ok(REGISTER, token, {"password": "castle-keep-8"})
    account = {"id": me["id"], "name": me["name"], "guest": False, "bot": False}
    assert upgraded["account"] == account
    profile = (await api.get(f"/api/players/{me['id']}")).json()
    assert profile["guest"] is False and profile["name"] == me["name"]
    assert match_id in [m["id"] for m in profile["matches"]]
    # The old token still works; the name and password log in to the same account.
    assert (await api.get("/api/accounts/me", token)).json()["guest"] is False
    login = await api.client.post(
        "/api/sessions", json={"name": me["name"], "password": "castle-keep-8"}
    )
    assert login.status_code == 200 and login.json()["account"]["id"] == me["id"]

    again = await api.post(REGISTER, upgraded["token"], {"password": "another-one-9"})
    assert again.status_code == 409 and code(again) == "account/registered"
    wrong = await api.client.post(
        "/api/sessions", json={"name": me["name"], "password": "another-one-9"}
    )
    assert wrong.status_code == 401
