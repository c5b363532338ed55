"""``python -m app backup`` while a server plays, ``restore`` into a new one: every match in the
copy replays to the same states as on the original server."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tests.app.conftest import ServerFactory
from tests.app.support import Api, Client, Server, app_command


async def play(players: list[Client], moves: int) -> None:
    """Alternate ``moves`` acknowledged tally moves between the two players."""
    for _ in range(moves):
        for seat, player in enumerate(players):
            await player.wait_until(lambda c, s=seat: c.view["turn"] == s and c.legal)
            seq = await player.act({"type": "move", "cell": (player.version * 3 + seat) % 20})
            await player.wait_for("ack", client_seq=seq)


async def test_backup_while_serving_then_restore_replays_the_same_states(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = make_server()
    api = Api(server)
    tokens = [await api.guest("ann"), await api.guest("bob")]
    match_ids = [await api.table("tally", tokens, options={"target": 40}) for _ in range(2)]
    tables = [[await Client(server, m, t).connect() for t in tokens] for m in match_ids]
    await play(tables[0], 3)
    await play(tables[1], 2)

    # The copy is taken while the first table keeps playing.
    backup_path = tmp_path / "copies" / "rampart-backup.db"
    playing = asyncio.create_task(play(tables[0], 6))
    done = await asyncio.to_thread(app_command, server.database_url, "backup", str(backup_path))
    await playing
    assert done.returncode == 0, done.stderr
    assert "backed up to" in done.stdout
    with sqlite3.connect(backup_path) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        kept = dict(
            copy.execute(
                "SELECT match_id, max(version) FROM match_actions GROUP BY match_id"
            ).fetchall()
        )
    assert set(kept) == set(match_ids)

    # Restore into a new database (in the same folder: the generated secret is kept beside
    # the database, so the players' tokens still work) and serve it.
    restored_url = f"sqlite+aiosqlite:///{tmp_path}/restored.db"
    done = await asyncio.to_thread(app_command, restored_url, "restore", str(backup_path))
    assert done.returncode == 0, done.stderr
    restored = Server(restored_url)
    restored.start(tmp_path)
    try:
        again = Api(restored)
        for match_id in match_ids:
            version = kept[match_id]
            before = (await api.get(f"/api/matches/{match_id}/state", version=version)).json()
            after = (await again.get(f"/api/matches/{match_id}/state")).json()
            assert after["version"] == version
            assert after["view"] == before["view"]
            for seat, token in enumerate(tokens):
                mine = await again.get(f"/api/matches/{match_id}/state", token, seat=seat)
                theirs = await api.get(
                    f"/api/matches/{match_id}/state", token, version=version, seat=seat
                )
                assert mine.json()["view"] == theirs.json()["view"]
        # The restored match is live: a player reconnects and plays on from the copy.
        ann = await Client(restored, match_ids[1], tokens[0]).connect()
        assert ann.version == kept[match_ids[1]]
        await again.close()
    finally:
        restored.stop()
    await api.close()


def test_backup_refuses_a_postgres_database_and_restore_a_missing_file(tmp_path: Path) -> None:
    done = app_command("postgresql+asyncpg://u@127.0.0.1:1/x", "backup", str(tmp_path / "b.db"))
    assert done.returncode == 1
    assert "pg_dump" in done.stderr
    done = app_command(f"sqlite+aiosqlite:///{tmp_path}/r.db", "restore", str(tmp_path / "none"))
    assert done.returncode == 1
    assert "no backup at" in done.stderr


def test_restore_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    done = app_command(f"sqlite+aiosqlite:///{tmp_path}/r.db", "restore", str(junk))
    assert done.returncode == 1
    assert "not" in done.stderr and "database" in done.stderr
    assert not (tmp_path / "r.db").exists()
