"""The operator's subcommands of ``python -m app``: ``backup PATH``, ``restore PATH`` and
``admin grant|revoke NAME`` / ``admin list`` (``app.moderation.admins``).

Top-level wiring beside ``app.__main__``: it reaches into ``app/ops`` (backups) and
``app/moderation`` (admins), and ``app/moderation`` stands on ``app/ops`` (through the
sessions' metrics), so neither folder can hold it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from app.config import get_settings
from app.moderation.admins import AdminRefused, admins, set_role
from app.ops.backup import BackupError, backup, restore
from app.ops.db_lock import hold_while_running

COMMANDS = frozenset({"backup", "restore", "admin"})


def run(argv: Sequence[str], migrate: Callable[[str], None]) -> int:
    """Run one subcommand; returns the process's exit status (0 done, 1 refused)."""
    parser = argparse.ArgumentParser(prog="python -m app")
    commands = parser.add_subparsers(dest="command", required=True)
    save = commands.add_parser(
        "backup", help="copy the embedded SQLite database to PATH (safe while serving)"
    )
    save.add_argument("path", type=Path)
    load = commands.add_parser(
        "restore",
        help="replace the embedded SQLite database with the backup at PATH (every server "
        "using it stopped)",
    )
    load.add_argument("path", type=Path)
    admin = commands.add_parser("admin", help="grant, revoke or list the admin role")
    admin.add_argument("action", choices=("grant", "revoke", "list"))
    admin.add_argument("name", nargs="?", help="the account's name (grant and revoke)")
    args = parser.parse_args(argv)
    try:
        database_url = get_settings().database_url
    except OSError as error:  # the generated secret beside the database cannot be kept
        print(f"{args.command}: {error.strerror or error}: {error.filename}", file=sys.stderr)
        return 1
    if args.command == "admin":
        hold_while_running(database_url)  # no restore while it writes (until it exits)
        migrate(database_url)
        return run_admin(database_url, args.action, args.name)
    try:
        if args.command == "backup":
            size = backup(database_url, args.path)
            print(f"backed up to {args.path} ({size} bytes)")
        else:
            kept = restore(database_url, args.path, migrate)
            where = f"; the replaced database is kept at {kept}" if kept else ""
            print(f"restored {args.path}{where}")
    except BackupError as refusal:
        print(f"{args.command}: {refusal}", file=sys.stderr)
        return 1
    return 0


def run_admin(database_url: str, action: str, name: str | None) -> int:
    if action == "list":
        for account in admins(database_url):
            print(f"{account.id}\t{account.name}")
        return 0
    if not name:
        print(f"admin {action}: name the account", file=sys.stderr)
        return 1
    try:
        account = set_role(database_url, name, grant=action == "grant")
    except AdminRefused as refusal:
        print(f"admin {action}: {refusal}", file=sys.stderr)
        return 1
    done = "is now an admin" if action == "grant" else "is no longer an admin"
    print(f"{account.name} (id {account.id}) {done}")
    return 0
