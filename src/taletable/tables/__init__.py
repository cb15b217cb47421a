"""Random tables as data, and one roller. Knows no game rules."""
