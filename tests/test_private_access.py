"""No module of app/ or engines/ reaches into another object's private parts.

A name with one leading underscore is private to its class or module: ``self._x`` and
``cls._x`` are fine, ``super()._x()`` too; ``other._x`` is not, and neither is importing a
``_name`` from another module. A helper that needs such a thing is part of that class: fold it
in, or give it a public interface.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("app", "engines")


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def own(value: ast.expr) -> bool:
    """``self``/``cls``, or ``super()``: an object's access to its own private parts."""
    if isinstance(value, ast.Name):
        return value.id in ("self", "cls")
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and (value.func.id == "super")
    )


def reaches(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr) and not own(node.value):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom):
            names = [alias.name for alias in node.names if private(alias.name)]
            found += [(node.lineno, f"from {node.module} import {name}") for name in names]
    return found


def test_reaches_finds_what_it_should() -> None:
    code = "other._secret()\nself._mine()\nsuper()._base()\nfrom x import _hidden\n"
    assert sorted(reaches(ast.parse(code))) == [(1, "other._secret"), (4, "from x import _hidden")]


def test_no_module_uses_another_objects_private_names() -> None:
    problems = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, text in reaches(ast.parse(path.read_text(), str(path))):
                problems.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert not problems, "private names used from outside:\n" + "\n".join(problems)
