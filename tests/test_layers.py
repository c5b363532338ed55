"""The import layering of ``app/`` and ``engines/``, read from the source with ``ast``.

Every import counts, those under ``if TYPE_CHECKING:`` and inside functions included: a module
typed against another's class cannot be understood without it. Checked here:

- no import cycle between modules of ``app/`` and ``engines/``;
- no cycle between the units of ``app/`` (its folders, and its top-level modules);
- ``engines/`` (the pure rules) imports nothing from ``app/``;
- each unit of ``app/`` imports only units of lower layers than its own (``LAYERS``).

The layers of ``app/``, from the bottom up (``engines/`` sits below them all):

1. helpers: ``config.py``, ``errors.py``, ``jsonenc.py``, ``security.py``, ``games.py``,
   ``collector.py`` (may import each other, and nothing else of ``app/``), and ``protocol/``
   (the types of the messages the server sends);
2. ``accounts/``: account names, the login guard and its throttle;
3. ``db/``: the models, repositories and the action log;
4. the services the match path stands on, none importing another: ``ops/`` (metrics, logs,
   backups, shutdown), ``scoring/`` (ledger, ratings), ``races/`` (the grab-race arbiter,
   claims, link measurement, suspicion flags), ``cluster/`` (directory, bus and locks over
   Redis);
5. ``sessions/``: one authoritative session per match, and the hub that holds them;
6. what opens matches: ``lobby/`` (tables and the lobby feed), ``practice/`` (bot tables);
7. ``tournaments/`` and ``matchmaking/`` (both seat players through the lobby);
8. ``moderation/`` (reports, bans, voiding a match and its tournament results), ``notify/``
   (e-mail about correspondence matches);
9. ``realtime/``: the match and lobby sockets, and relaying a socket to the match's owner;
10. ``api/``: the REST routes;
11. wiring: ``main.py`` (the application), ``wiring.py`` (its services built, started and
    stopped), ``node.py`` (this process as one node of a cluster), ``cli.py`` (the operator's
    commands), ``web.py`` (the browser client), ``__main__.py`` (the process): they may import
    anything, nothing imports them but each other.

Only ``app/realtime/services.py`` reads or writes ``app.state``: everything else reaches the
process's services through typed dependencies (``app.api.deps``) or is handed them.

Nothing in ``app/`` or ``engines/`` imports or names a module of ``bench/`` (the benchmarks
stand on the server; a benchmark's game reaches it through an entry point in pyproject.toml).

A new folder or top-level module of ``app/`` goes into ``LAYERS`` below, or this test fails.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("app", "engines")

# Each unit of app/ (a folder, or a top-level module by its module name) and its layer.
LAYERS: dict[str, int] = {
    **dict.fromkeys(["config", "errors", "jsonenc", "security", "games", "collector"], 1),
    "protocol": 1,
    "accounts": 2,
    "db": 3,
    **dict.fromkeys(["ops", "scoring", "races", "cluster"], 4),
    "sessions": 5,
    **dict.fromkeys(["lobby", "practice"], 6),
    **dict.fromkeys(["tournaments", "matchmaking"], 7),
    **dict.fromkeys(["moderation", "notify"], 8),
    "realtime": 9,
    "api": 10,
    **dict.fromkeys(["main", "wiring", "node", "cli", "web", "__main__"], 11),
}
# Layers whose units are single modules, which may import each other (cycles still fail).
OPEN_LAYERS = frozenset({1, 11})


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def imported_names(path: Path, module: str) -> set[str]:
    """Every module name an import in the file names (``from X import Y``: ``X`` and
    ``X.Y``, as ``Y`` may be a module), relative imports made absolute."""
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def import_graph(files: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports. An import of a package's own ``__init__``
    from inside the package is not a tie back, and is left out."""
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        found: set[str] = set()
        for name in imported_names(path, module):
            while name and name not in files:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                found.add(name)
        graph[module] = found
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def unit(module: str) -> str | None:
    """The unit of ``app/`` a module belongs to: its folder, or itself at the top level."""
    parts = module.split(".")
    return parts[1] if parts[0] == "app" and len(parts) > 1 else None


def unit_edges(graph: Mapping[str, set[str]]) -> dict[tuple[str, str], list[str]]:
    """(importing unit, imported unit) -> the importing modules, between units of ``app/``."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for module, imported in sorted(graph.items()):
        source = unit(module)
        for target in sorted({unit(name) for name in imported} - {None, source}):
            if source is not None and target is not None:
                edges[source, target].append(module)
    return edges


GRAPH = import_graph(source_files())
EDGES = unit_edges(GRAPH)


def test_no_import_cycle_between_modules() -> None:
    found = cycles(GRAPH)
    assert not found, "import cycles between modules (type-only imports count):\n" + "\n".join(
        "  " + " <-> ".join(component) for component in found
    )


def test_no_cycle_between_the_folders_of_app() -> None:
    folder_graph: dict[str, set[str]] = defaultdict(set)
    for source, target in EDGES:
        folder_graph[source].add(target)
    found = cycles(folder_graph)
    lines = []
    for component in found:
        lines.append("  cycle: " + ", ".join(component))
        for (source, target), modules in sorted(EDGES.items()):
            if source in component and target in component:
                lines.append(f"    {source} -> {target}: {', '.join(modules)}")
    assert not found, "import cycles between the folders of app/:\n" + "\n".join(lines)


def test_engines_import_nothing_from_app() -> None:
    offending = []
    for module, imported in sorted(GRAPH.items()):
        of_app = sorted(name for name in imported if name.split(".")[0] == "app")
        if module.split(".")[0] == "engines" and of_app:
            offending.append(f"  {module} imports {', '.join(of_app)}")
    assert not offending, "engines/ must stay pure, but:\n" + "\n".join(offending)


def test_each_folder_of_app_imports_only_lower_layers() -> None:
    units = {unit(module) for module in GRAPH} - {None}
    missing = sorted(units - set(LAYERS))
    assert not missing, f"place these in LAYERS of {Path(__file__).name}: {', '.join(missing)}"
    upward = []
    for (source, target), modules in sorted(EDGES.items()):
        if LAYERS[target] < LAYERS[source]:
            continue
        if LAYERS[target] == LAYERS[source] and LAYERS[source] in OPEN_LAYERS:
            continue
        upward.append(
            f"  {source} (layer {LAYERS[source]}) imports {target} (layer {LAYERS[target]}): "
            + ", ".join(modules)
        )
    assert not upward, "imports of a folder at the same layer or above:\n" + "\n".join(upward)


# A module path of bench/ in a string, as ``importlib.import_module`` or an entry point takes it.
BENCH_NAME = re.compile(r"bench(\.\w+)+(:\w+)?")


def bench_references(path: Path, module: str) -> list[str]:
    """The modules of ``bench/`` the file imports, or names in a string constant."""
    found = {name for name in imported_names(path, module) if name.split(".")[0] == "bench"}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        text = getattr(node, "value", None) if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and BENCH_NAME.fullmatch(text.strip()):
            found.add(text.strip())
    return sorted(found)


def test_app_and_engines_neither_import_nor_name_bench() -> None:
    offending = [
        f"  {module}: {', '.join(names)}"
        for module, path in sorted(source_files().items())
        if (names := bench_references(path, module))
    ]
    assert not offending, "the server must not reach into bench/, but:\n" + "\n".join(offending)


def test_the_bench_check_sees_an_import_and_a_named_module(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text(
        "import bench.loadgen\nfrom bench import peers\n"
        'GAME = "bench.tally.engine:TallyEngine"\nTEXT = "a bench of tests"\n'
    )
    assert bench_references(source, "app.x") == [
        "bench",
        "bench.loadgen",
        "bench.peers",
        "bench.tally.engine:TallyEngine",
    ]


SERVICES_HOME = "app.realtime.services"


def app_state_uses(path: Path) -> list[int]:
    """The lines that touch an application's ``state`` (``app.state``, ``request.app.state``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr == "state"
        and (
            (isinstance(node.value, ast.Name) and node.value.id == "app")
            or (isinstance(node.value, ast.Attribute) and node.value.attr == "app")
        )
    )


def test_only_the_services_container_touches_app_state() -> None:
    offending = [
        f"  {module}: lines {', '.join(map(str, lines))}"
        for module, path in sorted(source_files().items())
        if module != SERVICES_HOME and (lines := app_state_uses(path))
    ]
    assert not offending, "app.state outside " + SERVICES_HOME + ":\n" + "\n".join(offending)


def test_the_app_state_check_sees_every_spelling(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text(
        "a = request.app.state.hub\nb = app.state.limits\napp.state.c = 1\nd = session.state\n"
    )
    assert app_state_uses(source) == [1, 2, 3]
