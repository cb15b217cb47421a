"""Cogent Roleplay, editions ``core`` (002) and ``tiered`` (000, gaps from 001)."""

from taletable.systems.cogent.rules import CORE, TIERED, Edition, Rules

__all__ = ["CORE", "TIERED", "Edition", "Rules"]
