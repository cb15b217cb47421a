"""The Cortex-style pool system (004), where the GM is the Watchtower."""
