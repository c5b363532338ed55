"""Compile Rampart's strictly typed hot modules with mypyc into build/compiled/.

``make compiled`` runs it, and ``make run`` and ``make test`` run that first. It does nothing
when the build there already matches every source (and this Python and mypyc), and nothing
at all with ``RAMPART_PURE_PYTHON=1``. The extension files go to ``build/compiled/``, never
beside the ``.py`` files, with ``manifest.json`` recording each source's SHA-256 taken
before compiling: ``engines.compiled`` imports the build only while every source still has
its hash, so an edited ``.py`` is never shadowed by a stale build.

Compiled: the Ambush!, Castle Rampage and Castles engines and their bots, the bots' shared
kit, the action envelope every engine's ``apply`` goes through (``engines/envelope.py``),
the view diffs, the session path and the JSON encoder it calls (``app/jsonenc.py``) (the
figures that kept them: bench/PERF.md, "mypyc", "The session path compiled" and "Less work
per move"). No compiled class may have a Python base other than ``object``
(``typing.Generic`` included): mypyc then gives it a ``__weakref__`` slot its deallocator
never clears, and a weak reference to a freed instance crashes the process
(``tests/engines/test_compiled.py`` checks the build for such slots).
``engines/base.py`` stays interpreted (its ``runtime_checkable`` protocol must), as does
Ember for now.

    .venv/bin/python scripts/build_compiled.py            # build when stale
    .venv/bin/python scripts/build_compiled.py --force    # build anyway
"""

from __future__ import annotations

import argparse
import fcntl
import importlib.machinery
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engines.compiled import DEFAULT_DIR, MANIFEST, pure_python, source_hash  # noqa: E402

# The shared library every compiled module's shim loads (a top-level module name).
GROUP = "rampart"
# Globs under ROOT; package ``__init__.py`` files stay interpreted (they install the finder).
SOURCES = [
    "engines/botkit.py",
    "engines/envelope.py",
    "engines/ambush/*.py",
    "engines/rampage/*.py",
    "engines/castles/*.py",
    "app/sessions/view_diff.py",
    "app/sessions/session.py",
    "app/sessions/seat_views.py",
    "app/sessions/replies.py",
    "app/sessions/connections.py",
    "app/sessions/commands.py",
    "app/sessions/wire.py",
    "app/sessions/deadlines.py",
    "app/sessions/actor.py",
    "app/sessions/announce.py",
    "app/sessions/turns.py",
    "app/sessions/timecontrol.py",
    "app/jsonenc.py",
]
WORK = ROOT / "build" / "mypyc"  # generated C, objects and mypy's cache for the build


def sources() -> list[str]:
    found: list[str] = []
    for pattern in SOURCES:
        found += sorted(
            path.relative_to(ROOT).as_posix()
            for path in ROOT.glob(pattern)
            if path.name != "__init__.py"
        )
    return found


def wanted_manifest(files: list[str]) -> dict[str, Any]:
    """The manifest a build of ``files`` made now would have (hashes of the sources now)."""
    from mypy.version import __version__ as mypy_version

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return {
        "mypyc": mypy_version,
        "suffix": suffix,
        "library": f"{GROUP}__mypyc",
        "library_file": f"{GROUP}__mypyc{suffix}",
        "modules": {
            source.removesuffix(".py").replace("/", "."): {
                "source": source,
                "sha256": source_hash(ROOT / source),
                "file": source.removesuffix(".py") + suffix,
            }
            for source in files
        },
    }


def built_manifest() -> dict[str, Any] | None:
    try:
        built: dict[str, Any] = json.loads((DEFAULT_DIR / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return built


def build(files: list[str], manifest: dict[str, Any]) -> None:
    """Compile into a fresh folder, then swap it in (a running server keeps its files)."""
    from mypyc.build import mypycify
    from setuptools import setup

    target = DEFAULT_DIR.with_name(f"compiled.new-{os.getpid()}")
    shutil.rmtree(target, ignore_errors=True)
    os.chdir(ROOT)  # mypy reads its options (pyproject.toml) here; paths are relative to it
    extensions = mypycify(
        ["--cache-dir", str(WORK / "mypy_cache"), *files],
        opt_level="3",
        target_dir=str(WORK / "c"),
        group_name=GROUP,
    )
    os.chdir(WORK)  # not beside pyproject.toml: setuptools would read the project from it
    setup(
        name="rampart-compiled",
        ext_modules=extensions,
        script_args=[
            "--quiet",
            "build_ext",
            "--build-lib",
            str(target),
            "--build-temp",
            str(WORK / "temp"),
            "--parallel",
            str(os.cpu_count() or 1),
        ],
    )
    (target / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True), "utf-8")
    old = DEFAULT_DIR.with_name(f"compiled.old-{os.getpid()}")
    if DEFAULT_DIR.exists():
        DEFAULT_DIR.rename(old)
    target.rename(DEFAULT_DIR)
    shutil.rmtree(old, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--force", action="store_true", help="build even when up to date")
    args = parser.parse_args()
    if pure_python():
        print("build_compiled: RAMPART_PURE_PYTHON is set: no build")
        return
    WORK.mkdir(parents=True, exist_ok=True)
    with (WORK / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two makes at once: the second finds it built
        files = sources()
        manifest = wanted_manifest(files)
        if not args.force and built_manifest() == manifest:
            print(f"build_compiled: {DEFAULT_DIR.relative_to(ROOT)} is up to date")
            return
        started = time.monotonic()
        build(files, manifest)
    print(
        f"build_compiled: {len(files)} modules compiled into"
        f" {DEFAULT_DIR.relative_to(ROOT)} in {time.monotonic() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
