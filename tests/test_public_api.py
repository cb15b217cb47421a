"""The curated public names: sorted, importable, and documented."""

from __future__ import annotations

import importlib
import inspect

import pytest

PACKAGES = [
    "taletable",
    "taletable.dice",
    "taletable.prob",
    "taletable.tables",
    "taletable.systems.boons",
    "taletable.systems.labcats",
    "taletable.systems.cogent",
    "taletable.systems.cogent.character",
    "taletable.systems.cogent.combat",
    "taletable.systems.cogent.magic",
    "taletable.systems.cogent.narrator",
    "taletable.systems.cogent.odds",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_is_sorted_and_importable(name: str) -> None:
    """Each package's __all__ is unique and importable (ruff RUF022 keeps it sorted)."""
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert len(exported) == len(set(exported))
    for item in exported:
        assert hasattr(module, item), item


@pytest.mark.parametrize("name", PACKAGES)
def test_public_callables_have_docstrings(name: str) -> None:
    """Every exported class and function explains itself."""
    module = importlib.import_module(name)
    for item in module.__all__:
        value = getattr(module, item)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert value.__doc__ and value.__doc__.strip(), item
