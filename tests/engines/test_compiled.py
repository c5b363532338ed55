"""The optional mypyc build (``engines.compiled``, ``scripts/build_compiled.py``): loaded when
it matches every source, never when one changed, never with ``RAMPART_PURE_PYTHON=1``."""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import importlib.machinery
import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engines import compiled, registry
from engines.base import ActionError

ROOT = compiled.ROOT
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]

# A few engine and diff tests, run again in a subprocess with the .py modules only.
PURE_SUBSET = [
    "tests/engines/test_rng.py",
    "tests/engines/test_contract.py::test_bot_games_end_replay_and_round_trip[ambush]",
    "tests/engines/ambush/test_ambush_snapshots.py",
    "tests/engines/ambush/test_ambush_bots.py",
    "tests/app/sessions/test_view_diffs.py::test_diff_view_round_trips_and_keeps_its_inputs",
]

# Native classes with mypyc's broken weak reference slot (see the test below) that nothing
# ever refers to weakly: a dict subclass gets the slot from its builtin base, a generic class
# from ``typing.Generic``, a subclass of an interpreted class (``ServerSeat``) from its base.
WEAK_SLOT_UNUSED = {
    "app.sessions.wire.ServerSeat",
    "engines.ambush.state.PerCell",
    "engines.envelope.Action",
    "engines.envelope.Actions",
}

# Run in a subprocess: which file each module of the build was imported from.
REPORT_FILES = """
import importlib, json, sys
manifest = json.load(open(sys.argv[1]))
print(json.dumps({name: importlib.import_module(name).__file__ for name in manifest["modules"]}))
"""


def built_manifest() -> dict[str, object] | None:
    """The real build's manifest when the build is there and matches the sources."""
    if compiled.pure_python() or not compiled.usable_files(compiled.DEFAULT_DIR):
        return None
    manifest: dict[str, object] = json.loads((compiled.DEFAULT_DIR / compiled.MANIFEST).read_text())
    return manifest


def a_build(root: Path, build: Path, sources: dict[str, str]) -> dict[str, object]:
    """A fake build of ``sources`` (module name -> text) under ``root``: extension files that
    are never loaded, and a manifest with the sources' hashes."""
    modules = {}
    for name, text in sources.items():
        source = name.replace(".", "/") + ".py"
        (root / source).parent.mkdir(parents=True, exist_ok=True)
        (root / source).write_text(text)
        file = name.replace(".", "/") + SUFFIX
        (build / file).parent.mkdir(parents=True, exist_ok=True)
        (build / file).write_bytes(b"")
        modules[name] = {
            "source": source,
            "sha256": hashlib.sha256(text.encode()).hexdigest(),
            "file": file,
        }
    (build / f"lib__mypyc{SUFFIX}").write_bytes(b"")
    manifest = {
        "suffix": SUFFIX,
        "library": "lib__mypyc",
        "library_file": f"lib__mypyc{SUFFIX}",
        "modules": modules,
    }
    (build / compiled.MANIFEST).write_text(json.dumps(manifest))
    return manifest


def test_a_build_matching_its_sources_is_served_and_an_edited_source_stops_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    root, build = tmp_path / "repo", tmp_path / "build"
    a_build(root, build, {"pkg.fast": "X = 1\n", "pkg.other": "Y = 2\n"})
    files = compiled.usable_files(build, root)
    assert files == {
        "pkg.fast": build / f"pkg/fast{SUFFIX}",
        "pkg.other": build / f"pkg/other{SUFFIX}",
        "lib__mypyc": build / f"lib__mypyc{SUFFIX}",
    }
    spec = compiled.CompiledFinder(files).find_spec("pkg.fast")
    assert spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
    assert spec.origin == str(build / f"pkg/fast{SUFFIX}")
    assert compiled.CompiledFinder(files).find_spec("pkg.unlisted") is None

    (root / "pkg/other.py").write_text("Y = 3\n")  # an edit after the build
    with caplog.at_level(logging.WARNING, logger="rampart.compiled"):
        assert compiled.usable_files(build, root) == {}  # the whole build: they call each other
    assert "pkg/other.py changed since the compiled build" in caplog.text


def test_a_build_for_another_python_or_incomplete_is_not_used(tmp_path: Path) -> None:
    root, build = tmp_path / "repo", tmp_path / "build"
    manifest = a_build(root, build, {"pkg.fast": "X = 1\n"})
    (build / f"pkg/fast{SUFFIX}").unlink()
    assert compiled.usable_files(build, root) == {}
    (build / f"pkg/fast{SUFFIX}").write_bytes(b"")
    (build / compiled.MANIFEST).write_text(json.dumps({**manifest, "suffix": ".cpython-19.so"}))
    assert compiled.usable_files(build, root) == {}


def test_the_build_is_what_this_process_runs_when_make_built_it() -> None:
    """``make test`` builds first and sets ``RAMPART_REQUIRE_COMPILED``: there, every module of
    the build must have been imported from it."""
    manifest = built_manifest()
    if manifest is None:
        if os.environ.get("RAMPART_REQUIRE_COMPILED"):
            pytest.fail("make built the compiled modules but they are absent or stale")
        pytest.skip("no compiled build matching the sources (make compiled)")
    for name in manifest["modules"]:  # type: ignore[attr-defined]
        module = importlib.import_module(name)
        assert module.__file__ is not None
        assert Path(module.__file__).is_relative_to(compiled.DEFAULT_DIR), name
        assert module.__file__.endswith(SUFFIX)


def test_the_pure_python_switch_runs_engine_and_diff_tests_on_the_py_modules() -> None:
    env = {**os.environ, compiled.PURE_SWITCH: "1"}
    env.pop("RAMPART_REQUIRE_COMPILED", None)
    sources = [
        "engines/base.py",
        "engines/ambush/engine.py",
        "engines/ambush/view.py",
        "app/sessions/view_diff.py",
    ]
    names = [source.removesuffix(".py").replace("/", ".") for source in sources]
    check = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    file = importlib.import_module(name).__file__\n"
        "    assert file.endswith('.py'), (name, file)\n"
        "import pytest\n"
        f"sys.exit(pytest.main(['-q', '-x', '-p', 'no:cacheprovider', *{PURE_SUBSET!r}]))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", check],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert " passed" in run.stdout


def report_files(build: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Where a fresh interpreter, with ``env``, finds each module of ``build``'s manifest."""
    return subprocess.run(
        [sys.executable, "-c", REPORT_FILES, str(build / compiled.MANIFEST)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_edited_source_makes_the_real_build_give_way_to_the_py_files(tmp_path: Path) -> None:
    """A copy of the real build whose manifest records another hash for one source, as an edit
    after the build would leave it: every module comes from its .py, with a warning."""
    manifest = built_manifest()
    if manifest is None:
        pytest.skip("no compiled build matching the sources (make compiled)")
    copy = tmp_path / "compiled"
    shutil.copytree(compiled.DEFAULT_DIR, copy)
    edited = "engines/ambush/view.py"
    manifest["modules"]["engines.ambush.view"]["sha256"] = "0" * 64  # type: ignore[index]
    (copy / compiled.MANIFEST).write_text(json.dumps(manifest))
    env = {**os.environ, compiled.DIR_SWITCH: str(copy)}
    env.pop(compiled.PURE_SWITCH, None)
    run = report_files(copy, env)
    assert run.returncode == 0, run.stderr
    files = json.loads(run.stdout)
    assert all(file.endswith(".py") for file in files.values()), files
    assert f"{edited} changed since the compiled build" in run.stderr
    # And the untouched copy is used: the check above is not vacuous.
    (copy / compiled.MANIFEST).write_text((compiled.DEFAULT_DIR / compiled.MANIFEST).read_text())
    run = report_files(copy, env)
    assert run.returncode == 0, run.stderr
    assert all(file.endswith(SUFFIX) for file in json.loads(run.stdout).values())


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda engine, state: engine.apply(state, 0, "resign", 0), "ambush/bad_action"),
        (lambda engine, state: engine.apply(state, 0, None, 0), "ambush/bad_action"),
        (lambda engine, state: engine.apply(state, 0, {"type": "resign"}, 1.5), "ambush/bad_field"),
        (lambda engine, state: engine.apply(state, "0", {"type": "resign"}, 0), "ambush/bad_seat"),
        (lambda engine, state: engine.setup("4", 1), "ambush/bad_seats"),
        (lambda engine, state: engine.apply(state, 0, "resign", 0), "rampage/bad_action"),
        (lambda engine, state: engine.apply(state, "0", {"type": "resign"}, 0), "rampage/bad_seat"),
        (lambda engine, state: engine.setup("2", 1), "rampage/bad_seats"),
        (lambda engine, state: engine.apply(state, 0, "resign", 0), "castles/bad_action"),
        (lambda engine, state: engine.apply(state, "0", {"type": "resign"}, 0), "castles/bad_seat"),
    ],
)
def test_malformed_input_gets_the_engines_refusal_compiled_or_not(call: Any, code: str) -> None:
    """A compiled function checks its typed parameters first (TypeError): the engine's entry
    points take what the .py accepted, so a refusal keeps its code either way."""
    engine = registry.get(code.split("/")[0])
    state = engine.setup(2, 1)
    with pytest.raises(ActionError) as refused:
        call(engine, state)
    assert refused.value.code == code


def dealloc_of(cls: type) -> int | None:
    """The address of the class's ``tp_dealloc`` (after the variable-size object header and
    ``tp_name``, ``tp_basicsize``, ``tp_itemsize``)."""
    offset = 3 * ctypes.sizeof(ctypes.c_ssize_t) + ctypes.sizeof(ctypes.c_char_p)
    offset += 2 * ctypes.sizeof(ctypes.c_ssize_t)
    return ctypes.c_void_p.from_address(id(cls) + offset).value


def test_no_compiled_class_has_a_weak_reference_slot() -> None:
    """mypyc gives a native class with a Python base (``typing.Generic``, say) ``__dict__`` and
    ``__weakref__`` slots, but its deallocator never clears the weak references and its
    ``tp_clear`` releases the list's head as if it owned it: a weak reference to a freed
    instance then reads freed memory (the session path once crashed inside a garbage
    collection so). No native class of the build may have the slot but those listed, which
    nothing refers to weakly. Classes mypyc leaves interpreted (protocols, subclasses of
    interpreted classes) are freed by CPython's own deallocator, which clears them."""
    manifest = built_manifest()
    if manifest is None:
        pytest.skip("no compiled build matching the sources (make compiled)")

    class Plain:
        pass

    class Other:
        pass

    cpython_dealloc = dealloc_of(Plain)
    assert cpython_dealloc == dealloc_of(Other) != dealloc_of(int)  # the offset is right
    slotted = set()
    for name in manifest["modules"]:  # type: ignore[attr-defined]
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and value.__module__ == name
                and value.__weakrefoffset__
                and dealloc_of(value) != cpython_dealloc
            ):
                slotted.add(f"{name}.{value.__qualname__}")
    assert slotted <= WEAK_SLOT_UNUSED, f"compiled classes with a weak reference slot: {slotted}"
