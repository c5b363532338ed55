"""The optional mypyc build of the hot modules: imported only while it matches every source.

``scripts/build_compiled.py`` (``make compiled``, run by ``make run`` and ``make test``)
compiles the modules it lists into ``build/compiled/``, away from the ``.py`` files, and
writes ``build/compiled/manifest.json``: per module its source, the source's SHA-256 taken
before compiling and its extension file, plus the shared library the modules' shims load.
``install_compiled_finder`` (called first thing by ``engines/__init__.py`` and
``app/__init__.py``) puts a finder at the head of ``sys.meta_path`` that serves those
extension files, but only when every listed source still has its recorded hash. The compiled
modules call each other directly, not through their modules, so one edited source makes the
whole build stale: then every module is imported from its ``.py`` (with one warning naming
the edited files) until the build is run again. A stale build is never half used.

Switches: ``RAMPART_PURE_PYTHON=1`` ignores the build (and the build script skips building);
``RAMPART_COMPILED_DIR`` reads the build from another folder (tests). This runs once, when
the ``engines`` package is imported: it reads the manifest and the listed sources then, and
no file afterwards.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / "build" / "compiled"
MANIFEST = "manifest.json"
PURE_SWITCH = "RAMPART_PURE_PYTHON"
DIR_SWITCH = "RAMPART_COMPILED_DIR"

log = logging.getLogger("rampart.compiled")


def pure_python() -> bool:
    """Whether ``RAMPART_PURE_PYTHON`` asks for the ``.py`` modules only."""
    return os.environ.get(PURE_SWITCH, "").strip().lower() not in ("", "0", "false", "no")


def build_dir() -> Path:
    """Where the build is read from: ``RAMPART_COMPILED_DIR``, else ``build/compiled``."""
    return Path(os.environ.get(DIR_SWITCH) or DEFAULT_DIR)


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class CompiledFinder:
    """A meta path finder serving one build's modules (``files``: name -> extension file)."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def stale_sources(manifest: dict[str, Any], root: Path = ROOT) -> list[str]:
    """The listed sources whose hash is not the one recorded when the build was made."""
    stale = []
    for entry in manifest["modules"].values():
        source = root / entry["source"]
        if not source.is_file() or source_hash(source) != entry["sha256"]:
            stale.append(entry["source"])
    return stale


def usable_files(folder: Path, root: Path = ROOT) -> dict[str, Path]:
    """Module name -> extension file for every module of the build in ``folder`` (its shared
    library included), or ``{}`` when there is no build, it was made for another Python, it
    is incomplete, or a source changed since it was made (those three logged)."""
    try:
        manifest: dict[str, Any] = json.loads((folder / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if manifest.get("suffix") not in importlib.machinery.EXTENSION_SUFFIXES:
        log.warning("the compiled build in %s is for another Python: using the .py files", folder)
        return {}
    files = {name: folder / entry["file"] for name, entry in manifest["modules"].items()}
    files[manifest["library"]] = folder / manifest["library_file"]
    if not all(file.is_file() for file in files.values()):
        log.warning("the compiled build in %s is incomplete: using the .py files", folder)
        return {}
    stale = stale_sources(manifest, root)
    if stale:
        log.warning(
            "%s changed since the compiled build: using the .py files (make compiled builds again)",
            ", ".join(stale),
        )
        return {}
    return files


def install_compiled_finder() -> CompiledFinder | None:
    """Put the build's finder first on ``sys.meta_path``, once per process; None when
    ``RAMPART_PURE_PYTHON`` is set or the build is absent, foreign, incomplete or stale."""
    for finder in sys.meta_path:
        if isinstance(finder, CompiledFinder):
            return finder
    if pure_python():
        return None
    files = usable_files(build_dir())
    if not files:
        return None
    finder = CompiledFinder(files)
    sys.meta_path.insert(0, finder)
    return finder
