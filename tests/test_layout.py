"""The tests mirror the package layout: ``tests/app/<package>/`` for ``app/<package>/``, and
``tests/app/test_<module>.py`` for a module at the top of ``app/``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def misplaced(tests: Path, package: Path) -> list[str]:
    """Test files under ``tests`` that name no package or top-level module of ``package``."""
    problems = []
    for path in sorted(tests.rglob("test_*.py")):
        relative = path.relative_to(tests)
        if len(relative.parts) == 1:
            module = relative.stem.removeprefix("test_")
            if not (package / f"{module}.py").is_file():
                problems.append(f"{relative}: no {package.name}/{module}.py")
        elif not (package / relative.parts[0]).is_dir():
            problems.append(f"{relative}: no {package.name}/{relative.parts[0]}/")
    return problems


def test_app_tests_sit_where_their_code_does() -> None:
    problems = misplaced(ROOT / "tests" / "app", ROOT / "app")
    assert not problems, "tests outside the package layout:\n" + "\n".join(problems)


def test_the_check_sees_a_stray_file(tmp_path: Path) -> None:
    (tmp_path / "app" / "lobby").mkdir(parents=True)
    (tmp_path / "app" / "config.py").write_text("")
    tests = tmp_path / "tests"
    (tests / "lobby").mkdir(parents=True)
    (tests / "nowhere").mkdir()
    for name in ("lobby/test_a.py", "nowhere/test_b.py", "test_config.py", "test_units.py"):
        (tests / name).write_text("")
    assert misplaced(tests, tmp_path / "app") == [
        "nowhere/test_b.py: no app/nowhere/",
        "test_units.py: no app/units.py",
    ]
