"""This process as one node of a cluster: wires the directory, the bus and the locks in.

Top-level wiring beside ``app.main``, not in ``app/cluster``: it connects the cluster's parts
to the hub, the lobby feed and the tournaments, which themselves stand on ``app/cluster``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.cluster.bus import Bus
from app.cluster.directory import ClusterUnavailable, Directory
from app.cluster.locks import Locks
from app.config import Settings
from app.lobby.feed import LobbyFeed
from app.sessions.hub import Hub
from app.tournaments.service import TournamentService

log = logging.getLogger(__name__)


class ClusterNode:
    """Started before the hub rebuilds matches, stopped after it has closed them.

    - the hub claims each match it loads (``Directory``), and every ``node_ttl_s`` adopts
      the unfinished matches of processes that died;
    - if this process's own heartbeat lapsed, it drops the matches others took meanwhile;
    - lobby snapshots and tournament standings reach the lobby sockets of every process;
    - a withdrawal's resign goes to the process that owns the match;
    - a tournament's call to a table reaches the player's pages in every process, and word
      that it reached one goes to the process that holds the match.
    """

    def __init__(self, settings: Settings) -> None:
        self.redis = Redis.from_url(settings.redis_url)
        node_id = settings.node_id or settings.node_url
        self.directory = Directory(self.redis, node_id, settings.node_url, settings.node_ttl_s)
        self.bus = Bus(self.redis, node_id)
        self.locks = Locks(self.redis)
        self.adopt_every_s = settings.node_ttl_s
        self._adopter: asyncio.Task[None] | None = None

    async def start(self, hub: Hub, feed: LobbyFeed) -> None:
        await self.directory.start()
        hub.placement = self.directory
        self.directory.on_lapse = hub.keep_owned
        feed.relay = self.bus.send
        self.bus.on("lobby", lambda body: _deliver_lobby(feed, body))
        self.bus.on("feed", lambda body: feed.deliver_text(body["text"]))
        self.bus.on("notify", lambda body: _deliver_to(feed, body))
        self.bus.on("call", lambda body: _deliver_call(feed, body))
        self.bus.on("match_news", lambda body: _deliver_match_news(hub, body))
        await self.bus.start()

    def serve_tournaments(self, tournaments: TournamentService) -> None:
        tournaments.forward = self.bus.send
        self.bus.on("resign", lambda body: tournaments.on_forwarded_resign(body))
        self.bus.on("told", lambda body: tournaments.on_forwarded_told(body))

    def adopt_orphans(self, hub: Hub) -> None:
        """From now on, take over the matches of processes that stop answering."""
        self._adopter = asyncio.create_task(self._adopting(hub), name="cluster-adopter")

    async def _adopting(self, hub: Hub) -> None:
        while True:
            await asyncio.sleep(self.adopt_every_s)
            try:
                await hub.adopt()
            except (RedisError, OSError, ClusterUnavailable) as error:
                # Redis is down or restarting: nothing can be adopted safely; next round.
                log.warning("adopting orphaned matches: Redis did not answer (%r)", error)
            except Exception:
                log.exception("adopting orphaned matches failed")

    async def stop(self) -> None:
        if self._adopter is not None:
            self._adopter.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._adopter
        await self.bus.stop()
        await self.directory.stop()
        await self.redis.aclose()


def _deliver_match_news(hub: Hub, body: dict[str, object]) -> None:
    """A message for every socket of a match this process serves (a rematch offered through
    another process)."""
    # Read only: a match asleep (or elsewhere) has no socket here to tell.
    session = hub.sessions.get(int(str(body["match_id"])))
    if session is not None:
        for peer in list(session.peers):
            peer.send_text(str(body["text"]))


def _deliver_to(feed: LobbyFeed, body: dict[str, object]) -> None:
    """A message for this process's sockets of one player (quick play, rematches)."""
    feed.deliver_to(int(str(body["account_id"])), str(body["text"]))


def _deliver_call(feed: LobbyFeed, body: dict[str, object]) -> None:
    """A tournament's call to a table, for this process's sockets of the player."""
    feed.deliver_call(int(str(body["account_id"])), int(str(body["match_id"])), str(body["text"]))


def _deliver_lobby(feed: LobbyFeed, body: dict[str, object]) -> None:
    members = body["members"]
    assert isinstance(members, list)
    lobby = body["lobby"]
    assert isinstance(lobby, dict)
    feed.deliver_lobby(lobby, public=bool(body["public"]), members=set(members))
