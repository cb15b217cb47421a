"""The curated public names: sorted, importable, and documented."""

from __future__ import annotations

import importlib
import inspect

import pytest

PACKAGES = [
    "taletable",
    "taletable.dice",
    "taletable.explain",
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
    "taletable.play",
    "taletable.store",
]


def _isort_style(name: str) -> tuple[int, str]:
    """ruff's RUF022 order: CONSTANTS, then Classes, then functions, each alphabetical."""
    kind = 0 if name.isupper() or (name.upper() == name and "_" in name) else 1
    return (kind if name[:1].isupper() else 2, name)


@pytest.mark.parametrize("name", PACKAGES)
def test_all_is_sorted_and_importable(name: str) -> None:
    """Each package's __all__ is unique, sorted as ruff's RUF022 sorts, and importable."""
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert len(exported) == len(set(exported))
    assert exported == sorted(exported, key=_isort_style)
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
