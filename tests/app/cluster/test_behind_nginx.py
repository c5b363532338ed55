"""The shipped ``deploy/nginx.conf`` in front of two real processes: REST and match sockets
go round-robin, and a match is played whichever process each request and socket reaches."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.app.cluster.conftest import NodeFactory, needs_cluster
from tests.app.support import ROOT, Api, Client, Server, free_port

NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
pytestmark = [*needs_cluster, pytest.mark.skipif(NGINX is None, reason="nginx is not installed")]


def nginx_config(folder: Path, listen: int, nodes: list[Server]) -> Path:
    """``deploy/nginx.conf`` with the nodes' addresses for app1, app2 and ``listen`` for 8000,
    inside the main and ``http`` blocks that the nginx image supplies around ``conf.d``."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    for name, node in zip(("app1", "app2"), nodes, strict=True):
        site = site.replace(f"server {name}:8000;", f"server 127.0.0.1:{node.port};")
    site = re.sub(r"listen 8000;", f"listen 127.0.0.1:{listen};", site)
    temp = " ".join(
        f"{kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    config = folder / "nginx.conf"
    config.write_text(
        f"worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log;\n"
        "events { worker_connections 1024; }\n"
        f"http {{ access_log off; {temp} uwsgi_temp_path {folder}/uwsgi; "
        f"scgi_temp_path {folder}/scgi;\n{site}\n}}\n"
    )
    return config


@pytest.fixture
def front(cluster: NodeFactory, tmp_path: Path) -> Iterator[tuple[Server, list[Server]]]:
    """nginx on a free port before two nodes; yields it (as a ``Server`` to talk to) and them."""
    nodes = [cluster(RAMPART_NODE_ID="app1"), cluster(RAMPART_NODE_ID="app2")]
    folder = tmp_path / "nginx"
    folder.mkdir()
    port = free_port()
    config = nginx_config(folder, port, nodes)
    command = [str(NGINX), "-p", str(folder), "-c", str(config), "-g", "daemon off;"]
    process = subprocess.Popen(command, stderr=subprocess.STDOUT, stdout=subprocess.DEVNULL)
    try:
        front = Server("", port=port)
        deadline = time.monotonic() + 10
        while True:
            log = folder / "error.log"
            assert process.poll() is None, log.read_text() if log.exists() else "nginx exited"
            try:
                if httpx.get(f"{front.http}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "nginx did not come up"
            time.sleep(0.1)
        yield front, nodes
    finally:
        process.terminate()
        process.wait(10)


def relayed(nodes: list[Server]) -> int:
    return sum(httpx.get(f"{node.http}/api/health").json()["relayed_sockets"] for node in nodes)


async def test_a_match_played_through_nginx_over_two_processes(
    front: tuple[Server, list[Server]],
) -> None:
    door, nodes = front
    api = Api(door)
    seen = {(await api.get("/api/health")).json()["node"] for _ in range(4)}
    assert seen == {"app1", "app2"}  # round-robin reaches both
    tokens = [await api.guest(f"p{n}") for n in range(4)]
    match_id = await api.table("tally", tokens, options={"target": 50})
    owner = (await api.get(f"/api/matches/{match_id}/route")).json()["node"]
    assert owner in ("app1", "app2")
    # Round-robin sockets: those that reach the other process are relayed to the owner.
    clients = [await Client(door, match_id, token).connect() for token in tokens]
    assert [client.seat for client in clients] == [0, 1, 2, 3]
    assert relayed(nodes) >= 1
    await play(clients, versions=range(1, 5))
    for client in clients:
        await client.close()
    # With the route's hint nginx sends every socket straight to the owner: no relay.
    hinted = []
    for token in tokens:
        client = Client(door, match_id, token)
        client.url += f"?node={owner}"
        client.seq = 100  # newer than the first sockets' actions (an older one is a resend)
        hinted.append(await client.connect(last_version=4))
    assert relayed(nodes) == 0
    await play(hinted, versions=range(5, 9))
    live = [httpx.get(f"{node.http}/api/health").json()["live_matches"] for node in nodes]
    assert sorted(live) == [0, 1]  # one process runs it
    await api.close()


async def play(clients: list[Client], versions: range) -> None:
    """Each seat moves in turn; every seat sees every move."""
    for version in versions:
        mover = clients[(version - 1) % 4]
        seq = await mover.act({"type": "move", "cell": version})
        await mover.wait_for("ack", client_seq=seq)
        for client in clients:
            await client.wait_for("patch", version=version)
