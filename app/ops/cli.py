"""The operator's subcommands of ``python -m app``: ``backup PATH`` and ``restore PATH``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from app.config import get_settings
from app.ops.backup import BackupError, backup, restore

COMMANDS = frozenset({"backup", "restore"})


def run(argv: Sequence[str], migrate: Callable[[str], None]) -> int:
    """Run one subcommand; returns the process's exit status (0 done, 1 refused)."""
    parser = argparse.ArgumentParser(prog="python -m app")
    commands = parser.add_subparsers(dest="command", required=True)
    save = commands.add_parser(
        "backup", help="copy the embedded SQLite database to PATH (safe while serving)"
    )
    save.add_argument("path", type=Path)
    load = commands.add_parser(
        "restore", help="replace the embedded SQLite database with the backup at PATH"
    )
    load.add_argument("path", type=Path)
    args = parser.parse_args(argv)
    database_url = get_settings().database_url
    try:
        if args.command == "backup":
            size = backup(database_url, args.path)
            print(f"backed up to {args.path} ({size} bytes)")
        else:
            kept = restore(database_url, args.path)
            migrate(database_url)
            where = f"; the replaced database is kept at {kept}" if kept else ""
            print(f"restored {args.path}{where}")
    except BackupError as refusal:
        print(f"{args.command}: {refusal}", file=sys.stderr)
        return 1
    return 0
