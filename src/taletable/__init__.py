"""taletable: rules engine, exact odds and table tools for dice-pool tabletop role-playing games."""

from taletable.errors import DataError, InputError, RulesError, TaletableError

__version__ = "0.1.0"

__all__ = ["DataError", "InputError", "RulesError", "TaletableError", "__version__"]
