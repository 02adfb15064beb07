"""The command as an installed package: `--version` from the package's metadata, the history from
ONECLAW_SEARCH_DB when --db is absent, and what the distribution declares (licence, extras)."""
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from oneclaw_search.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "oneclaw-search"
VARIABLE = "ONECLAW_SEARCH_DB"


def test_version_prints_the_installed_version_and_exits_zero():
    done = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"oneclaw-search {version('oneclaw-search-history')}\n"


def test_the_history_comes_from_the_environment_when_db_is_absent(seeded_db, monkeypatch, capsys):
    monkeypatch.setenv(VARIABLE, str(seeded_db))
    assert main(["search", "Roppongi", "--time-zone", "Asia/Tokyo"]) == 0
    assert "Italian restaurants in Roppongi" in capsys.readouterr().out


def test_the_variable_may_start_at_the_home_folder(seeded_db, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(seeded_db.parent))
    monkeypatch.setenv(VARIABLE, f"~/{seeded_db.name}")
    assert main(["search", "Roppongi"]) == 0
    assert "Roppongi" in capsys.readouterr().out


def test_db_wins_over_the_variable(seeded_db, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(VARIABLE, str(tmp_path / "elsewhere.db"))
    assert main(["--db", str(seeded_db), "search", "Roppongi"]) == 0
    assert "Roppongi" in capsys.readouterr().out and not (tmp_path / "elsewhere.db").exists()


@pytest.mark.parametrize("value", [None, "", "  "])
def test_without_either_the_usage_error_names_both(monkeypatch, capsys, value):
    monkeypatch.delenv(VARIABLE, raising=False)
    if value is not None:
        monkeypatch.setenv(VARIABLE, value)
    with pytest.raises(SystemExit) as exit_info:
        main(["search", "x"])
    assert exit_info.value.code == 2
    assert "search needs --db PATH or ONECLAW_SEARCH_DB" in capsys.readouterr().err


def test_demo_keeps_its_own_default_whatever_the_variable_says(tmp_path, monkeypatch, capsys):
    chosen = tmp_path / "mine.db"
    monkeypatch.setenv(VARIABLE, str(chosen))
    monkeypatch.chdir(tmp_path)
    assert main(["demo"]) == 0
    assert (tmp_path / "oneclaw-demo.db").exists() and not chosen.exists()
    assert "Built a sample history in oneclaw-demo.db" in capsys.readouterr().out


def test_the_demo_runs_with_model2vec_unimportable(tmp_path):
    """The shipped table is read with tokenizers and numpy: model2vec is only the `models` extra."""
    code = ("import sys; sys.modules['model2vec'] = None\n"
            "from oneclaw_search.tools.cli import main\n"
            f"sys.exit(main(['demo', '--db', {str(tmp_path / 'demo.db')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "source: memory" in done.stdout and "Sakura Sushi" in done.stdout


def test_the_distribution_declares_its_licence_and_keeps_model2vec_optional():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "Apache-2.0"
    assert all(list(ROOT.glob(pattern)) for pattern in project["license-files"])
    assert "Copyright 2026 The oneclaw-search-history authors" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert not any(requirement.startswith("model2vec") for requirement in project["dependencies"])
    extras = project["optional-dependencies"]
    assert "model2vec>=0.10,<0.11" in extras["models"] and "model2vec>=0.10,<0.11" in extras["test"]


def test_the_changelog_opens_with_the_unreleased_section_then_the_dated_0_1_0():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[:2] == ["## [Unreleased]", "## [0.1.0] - 2026-11-25"]
    unreleased = text.split("## [Unreleased]")[1].split("## [0.1.0]")[0]
    assert all(line.startswith(("### ", "- ", "  ")) for line in unreleased.splitlines() if line.strip())
