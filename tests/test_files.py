"""Files: listing, reading and writing a build's many files by the os calls themselves."""

import os
from pathlib import Path

import pytest

from studysite.fileio import FileRefused, files_below, read_bytes, write_new_file


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


def test_read_bytes_fails_on_a_missing_file_and_refuses_a_folder(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_bytes(tmp_path / "missing")
    with pytest.raises(FileRefused) as refused:
        read_bytes(tmp_path)
    assert refused.value.code == "file.special"


@pytest.mark.parametrize("special", ["fifo", "device", "link to a device"])
def test_read_bytes_refuses_a_special_file_unopened(tmp_path, special):
    """A FIFO would block the build, /dev/zero never end."""
    path = tmp_path / "special"
    if special == "fifo":
        os.mkfifo(path)
    else:
        path = Path("/dev/zero") if special == "device" else path
        if special == "link to a device":
            path.symlink_to("/dev/zero")
    with pytest.raises(FileRefused) as refused:
        read_bytes(path)
    assert refused.value.code == "file.special"


def test_read_bytes_refuses_a_file_larger_than_its_limit(tmp_path):
    (tmp_path / "big").write_bytes(b"x" * 1001)
    assert read_bytes(tmp_path / "big", limit=1001) == b"x" * 1001
    with pytest.raises(FileRefused) as refused:
        read_bytes(tmp_path / "big", limit=1000)
    assert refused.value.code == "file.too-large"


def test_read_bytes_follows_a_link_only_within_the_folder_it_is_told(tmp_path):
    (tmp_path / "site/static").mkdir(parents=True)
    (tmp_path / "secret.txt").write_text("secret")
    (tmp_path / "site/static/page.txt").write_text("page")
    (tmp_path / "site/static/inside.txt").symlink_to("page.txt")
    (tmp_path / "site/static/outside.txt").symlink_to(tmp_path / "secret.txt")
    (tmp_path / "site/static/up.txt").symlink_to("../../secret.txt")
    folder = tmp_path / "site/static"
    assert read_bytes(folder / "inside.txt", within=folder) == b"page"
    for name in ("outside.txt", "up.txt"):
        with pytest.raises(FileRefused) as refused:
            read_bytes(folder / name, within=folder)
        assert refused.value.code == "file.outside" and str(tmp_path / "secret.txt") in refused.value.strerror


def test_write_new_file_writes_or_replaces_a_file(tmp_path):
    target = str(tmp_path / "page.html")
    write_new_file(target, b"<p>first, longer</p>")
    write_new_file(target, b"<p>second</p>")
    assert Path(target).read_bytes() == b"<p>second</p>"
