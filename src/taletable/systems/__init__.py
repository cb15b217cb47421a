"""Game systems. Each system is its own package and never imports another system."""
