"""Exact and fast probability distributions. Knows no game rules."""
