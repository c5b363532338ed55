"""Every action a match socket refuses is answered with its client_seq, a flood's included."""

from __future__ import annotations

import asyncio

from tests.app.support import Api, Client, Server


async def test_a_rate_limited_action_is_answered_with_its_seq_and_when_to_retry(
    api: Api, shared_server: Server
) -> None:
    tokens = [await api.guest("flo"), await api.guest("gus")]
    match_id = await api.table("tally", tokens, options={"target": 50})
    flo = await Client(shared_server, match_id, tokens[0]).connect()
    sent = range(1, 121)
    for seq in sent:
        await flo.send({"type": "action", "client_seq": seq, "action": {"type": "move", "cell": 0}})
    answered: dict[int, dict[str, object]] = {}
    async with asyncio.timeout(10):
        while len(answered) < len(sent):
            await asyncio.sleep(0.05)
            for message in flo.messages:
                if message["type"] in ("ack", "error") and "client_seq" in message:
                    answered.setdefault(int(message["client_seq"]), message)  # type: ignore[call-overload]
    assert sorted(answered) == list(sent)  # none dropped without a word
    limited = [m for m in answered.values() if m.get("code") == "rate/limited"]
    assert limited, "a burst of 120 is past the bucket (60)"
    for message in limited:
        assert message["retry"] is True
        assert isinstance(message["retry_after_ms"], int) and message["retry_after_ms"] > 0
    await flo.close()
