"""Stores: versioned saves, stale saves refused with ConflictError, nothing overwritten."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from taletable.errors import ConflictError, DataError, InputError
from taletable.store import FileStore, MemoryStore, Store


@pytest.fixture(params=["memory", "file", "sql"])
def store_and_key(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, str]]:
    if request.param == "memory":
        yield MemoryStore(), "sheet-1"
    elif request.param == "file":
        yield FileStore(), str(tmp_path / "sheet.yaml")
    else:  # the live table's store, in a transaction the test owns
        from taletable.server.db import Database, migrate
        from taletable.store.sql import SqlStore

        database = Database(f"sqlite:///{tmp_path / 'store.db'}")
        migrate(database)
        with database.write() as connection:
            yield SqlStore(connection, "table-1"), "sheet-1"
        database.dispose()


def test_sql_saves_share_the_callers_transaction(tmp_path: Path) -> None:
    """A save rolled back with its caller's transaction leaves nothing; scopes are apart."""
    from taletable.server.db import Database, migrate
    from taletable.store.sql import SqlStore

    database = Database(f"sqlite:///{tmp_path / 'store.db'}")
    migrate(database)
    with pytest.raises(RuntimeError), database.write() as connection:
        SqlStore(connection, "t").save("character", "k", {"name": "Mara"}, version=None)
        raise RuntimeError("the event could not be appended")
    with database.write() as connection:
        assert SqlStore(connection, "t").keys("character") == ()
        SqlStore(connection, "t").save("character", "k", {"name": "Mara"}, version=None)
        assert SqlStore(connection, "other").keys("character") == ()
    database.dispose()


def test_versions_grow_by_one_and_read_back(store_and_key: tuple[Store, str]) -> None:
    """A new thing is version 1; each save from the current version adds one."""
    store, key = store_and_key
    first = store.save("character", key, {"name": "Mara", "wealth": 2}, version=None)
    assert first.version == 1
    read = store.read("character", key)
    assert (read.version, dict(read.data)) == (1, {"name": "Mara", "wealth": 2})
    second = store.save("character", key, {"name": "Mara", "wealth": 3}, version=1)
    assert second.version == 2
    assert dict(store.read("character", key).data)["wealth"] == 3


def test_a_stale_save_is_refused_and_writes_nothing(store_and_key: tuple[Store, str]) -> None:
    """Two people read version 1; the first save lands, the second gets the conflict."""
    store, key = store_and_key
    store.save("character", key, {"name": "Mara"}, version=None)
    store.save("character", key, {"name": "Mara the Bold"}, version=1)
    with pytest.raises(ConflictError) as raised:
        store.save("character", key, {"name": "Mara the Sly"}, version=1)
    assert (raised.value.version, raised.value.current) == (1, 2)
    assert dict(store.read("character", key).data) == {"name": "Mara the Bold"}
    with pytest.raises(ConflictError):
        store.save("character", key, {"name": "again"}, version=None)


def test_a_missing_thing_and_an_unknown_kind_are_errors(store_and_key: tuple[Store, str]) -> None:
    """Reading nothing names what was asked; a kind the store does not keep is an InputError."""
    store, key = store_and_key
    with pytest.raises((InputError, DataError)):
        store.read("character", key)
    with pytest.raises(InputError, match="kind"):
        store.save("spell", key, {}, version=None)  # type: ignore[arg-type]


def test_memory_store_hands_out_copies() -> None:
    """Changing what was read or saved changes nothing in the store."""
    store = MemoryStore()
    data = {"items": ["rope"]}
    store.save("character", "k", data, version=None)
    data["items"].append("lamp")
    read = store.read("character", "k")
    read.data["items"].append("sword")  # type: ignore[index]
    assert dict(store.read("character", "k").data) == {"items": ["rope"]}
    assert store.keys("character") == ("k",)


def test_the_file_keeps_its_revision(tmp_path: Path) -> None:
    """The version lives in the file as ``revision``; a file written by hand is revision 0."""
    path = tmp_path / "mara.yaml"
    path.write_text("name: Mara\n", encoding="utf-8")
    store = FileStore()
    assert store.read("character", str(path)).version == 0
    store.save("character", str(path), {"name": "Mara"}, version=0)
    assert yaml.safe_load(path.read_text(encoding="utf-8")) == {"name": "Mara", "revision": 1}
    assert dict(store.read("character", str(path)).data) == {"name": "Mara"}


def test_a_hand_edit_since_the_read_is_a_conflict(tmp_path: Path) -> None:
    """An edit that kept the revision (an editor) is still seen: the bytes differ."""
    path = tmp_path / "mara.yaml"
    store = FileStore()
    store.save("character", str(path), {"name": "Mara"}, version=None)
    read = store.read("character", str(path))
    path.write_text(path.read_text(encoding="utf-8").replace("Mara", "Marah"), encoding="utf-8")
    with pytest.raises(ConflictError):
        store.save("character", str(path), {"name": "Mara", "wealth": 1}, version=read.version)
    assert "Marah" in path.read_text(encoding="utf-8")


def test_a_broken_revision_is_a_data_error(tmp_path: Path) -> None:
    """A revision that is not a whole number names the file and the field."""
    path = tmp_path / "bad.json"
    path.write_text('{"revision": "three"}', encoding="utf-8")
    with pytest.raises(DataError, match="revision"):
        FileStore().read("encounter", str(path))
