"""Packaging: one import root, every subpackage listed, and a wheel that installs only it (P-14)."""
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("domain", "data", "tools", "di")


def pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_folder_package_is_listed_for_setuptools():
    setuptools = pyproject()["tool"]["setuptools"]
    folders = {
        "oneclaw_search." + ".".join(init.parent.relative_to(ROOT).parts)
        for layer in LAYERS
        for init in (ROOT / layer).rglob("__init__.py")
    }
    runner = "oneclaw_search.conformance"  # the conformance suite's runner, beside its cases in specs/
    assert (ROOT / "specs" / "conformance" / "__init__.py").exists()
    assert folders | {runner} == set(setuptools["packages"])
    assert setuptools["package-dir"] == {**{f"oneclaw_search.{layer}": layer for layer in LAYERS}, runner: "specs/conformance"}


def test_no_layer_is_importable_under_its_bare_folder_name():
    loaded = {name: module for name, module in sys.modules.items() if name.split(".")[0] in LAYERS}
    assert all(not str(getattr(module, "__file__", "") or "").startswith(str(ROOT)) for module in loaded.values())
    import oneclaw_search.tools

    assert Path(oneclaw_search.tools.__file__).parent == ROOT / "tools"


@pytest.mark.spec("P-14")
def test_the_wheel_installs_nothing_but_oneclaw_search(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "dist", "__pycache__", "*.db"))
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(wheels), str(source)],
                   check=True, capture_output=True)
    (wheel,) = wheels.glob("*.whl")
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert tops == {"oneclaw_search", wheel.name.split("-py3")[0] + ".dist-info"}
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
                   check=True, capture_output=True)
    installed = {path.name for path in target.iterdir()} - {"bin"}
    assert installed == {"oneclaw_search", wheel.name.split("-py3")[0] + ".dist-info"}
    assert {path.name for path in (target / "oneclaw_search").iterdir()} >= set(LAYERS)
    shipped = {path.name for path in (target / "oneclaw_search" / "conformance").iterdir() if path.is_file() and path.suffix != ".py"}
    assert shipped == {path.name for path in (ROOT / "specs" / "conformance").iterdir() if path.suffix in (".json", ".md")}
    entry_points = next(target.glob("*.dist-info")).joinpath("entry_points.txt").read_text()
    assert "oneclaw-search = oneclaw_search.tools.cli:main" in entry_points
