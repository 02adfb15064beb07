"""ruff and mypy, run as part of the test suite so CI and the README's one test command include them.

mypy reads the package as it installs (`oneclaw_search.domain`, ...): a link tree gives it that
layout, since it cannot follow setuptools' editable-install finder.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("domain", "data", "tools", "di")
FOLDERS = {**{layer: layer for layer in LAYERS}, "conformance": "specs/conformance"}  # import name -> folder


def test_ruff_finds_nothing_in_the_package_or_the_tests():
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *FOLDERS.values(), "tests"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_mypy_finds_no_type_errors_in_the_package(tmp_path):
    package = tmp_path / "oneclaw_search"
    package.mkdir()
    for name, folder in FOLDERS.items():
        (package / name).symlink_to(ROOT / folder, target_is_directory=True)
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "--cache-dir", str(tmp_path / ".mypy_cache"), "-p", "oneclaw_search"],
                         cwd=tmp_path, env={"MYPYPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "Success: no issues found" in run.stdout
