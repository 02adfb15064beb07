"""Hostile backups: a zip bomb is refused in one line and leaves nothing in the cache; a
changed backup replaces its cached copy instead of adding another."""
import os
import sys
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from test_oneclaw_backup import backup_zip  # noqa: E402

from oneclaw_search.data.importers.backup_archive import history_in  # noqa: E402
from oneclaw_search.tools.cli import main  # noqa: E402


def cached_files(cache):
    """Files under the user cache's backups folder (a missing folder holds none)."""
    return sorted(path.relative_to(cache) for path in (cache / "oneclaw-search" / "backups").rglob("*") if path.is_file())


def test_a_zip_bomb_is_refused_in_one_line_and_leaves_nothing_behind(tmp_path, capsys, private_cache):
    bomb = tmp_path / "oneclaw-backup-bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("oneclaw.db", b"\0" * (64 << 20))  # 64 MiB of zeros: about 64 KB packed
    assert bomb.stat().st_size < 1 << 20
    assert main(["--db", str(bomb), "search", "sushi"]) == 1
    error = capsys.readouterr().err.strip()
    assert "\n" not in error and "zip bomb" in error
    assert cached_files(private_cache) == []


def test_a_changed_backup_replaces_its_cached_copy(tmp_path, private_cache):
    archive = backup_zip(tmp_path)
    first = history_in(archive)
    with zipfile.ZipFile(archive, "a") as zipped:
        zipped.writestr("notes.txt", "a second entry changes the zip")
    os.utime(archive, ns=(archive.stat().st_atime_ns, archive.stat().st_mtime_ns + 1_000_000_000))
    second = history_in(archive)
    assert second != first and second.is_file() and not first.exists()
    assert [path.name for path in cached_files(private_cache)] == ["oneclaw.db"]


def test_a_backup_whose_history_cannot_be_opened_leaves_nothing_in_the_cache(tmp_path, capsys, private_cache):
    garbage = tmp_path / "oneclaw-backup-garbage.zip"
    with zipfile.ZipFile(garbage, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("oneclaw.db", os.urandom(1 << 20))  # a megabyte that is no SQLite file
    assert main(["--db", str(garbage), "search", "sushi"]) == 1
    assert "not a SQLite database" in capsys.readouterr().err
    damaged = tmp_path / "oneclaw-backup-damaged.zip"
    with zipfile.ZipFile(damaged, "w") as zipped:  # a SQLite header, then pages no reader can make sense of
        zipped.writestr("oneclaw.db", b"SQLite format 3\0" + os.urandom(64 << 10))
    for _ in range(2):  # each try extracts again, and removes its copy again
        assert main(["--db", str(damaged), "search", "sushi"]) == 1
        assert capsys.readouterr().err.startswith("oneclaw-search: ")
        assert cached_files(private_cache) == []
    assert main(["--db", str(tmp_path / "h.db"), "import", "oneclaw", str(damaged)]) == 1
    assert cached_files(private_cache) == []
