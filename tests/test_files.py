"""Files: listing, reading and writing a build's many files by the os calls themselves."""

from pathlib import Path

import pytest

from studysite.fileio import files_below, read_bytes, write_new_file


def test_files_below_lists_files_not_links_to_folders(tmp_path):
    (tmp_path / "a/b").mkdir(parents=True)
    (tmp_path / "a/b/page.html").write_text("x")
    (tmp_path / "top.txt").write_text("x")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere/hidden.html").write_text("x")
    (tmp_path / "a/link").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "a/file-link").symlink_to(tmp_path / "top.txt")
    assert files_below(tmp_path) == {"a/b/page.html", "top.txt", "elsewhere/hidden.html", "a/file-link"}
    assert files_below(tmp_path / "missing") == set()


@pytest.mark.parametrize("data", [b"", b"topic: basics\n", bytes(range(256)) * 700])
def test_read_bytes_gives_what_path_read_bytes_gives(tmp_path, data):
    (tmp_path / "file").write_bytes(data)
    assert read_bytes(tmp_path / "file") == read_bytes(str(tmp_path / "file")) == data


def test_read_bytes_reads_a_file_whose_size_the_system_does_not_know_to_its_end():
    status = Path("/proc/self/status")
    if not status.exists():
        pytest.skip("no /proc")
    data = read_bytes(status)
    assert status.stat().st_size == 0 and data.startswith(b"Name:") and data.endswith(b"\n")


def test_read_bytes_fails_as_path_read_bytes_does(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_bytes(tmp_path / "missing")
    with pytest.raises(IsADirectoryError):
        read_bytes(tmp_path)


def test_write_new_file_writes_or_replaces_a_file(tmp_path):
    target = str(tmp_path / "page.html")
    write_new_file(target, b"<p>first, longer</p>")
    write_new_file(target, b"<p>second</p>")
    assert Path(target).read_bytes() == b"<p>second</p>"
