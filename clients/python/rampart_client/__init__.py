"""The official Python client for Rampart: REST, the match socket, and a bot helper.

A bot that plays any of the four games, from the seat's legal actions (the README of this
package, ``clients/python/README.md``, walks through it)::

    import asyncio, random
    from rampart_client import Rampart, play

    def choose(view, legal):
        return random.choice([a for a in legal if a["type"] != "resign"] or legal)

    async def main():
        async with Rampart("http://127.0.0.1:8000") as api:
            await api.guest("Robo")
            table = await api.create_table("rampage", 2)
            await api.add_bots(table["id"], 1)
            match_id = await api.start(table["id"])
            print(await play(api.base_url, match_id, api.token, choose))

    asyncio.run(main())
"""

from rampart_client.bot import play
from rampart_client.match import MatchClient, MatchGone
from rampart_client.protocol import Event, MatchProtocol
from rampart_client.rest import ApiError, Rampart
from rampart_client.views import HeldView, apply_diff

__all__ = [
    "ApiError",
    "Event",
    "HeldView",
    "MatchClient",
    "MatchGone",
    "MatchProtocol",
    "Rampart",
    "apply_diff",
    "play",
]
