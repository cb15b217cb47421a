"""The 3d8 boons-and-banes system (003)."""
