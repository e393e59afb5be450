"""leviathans: rules engine, tools and browser game for the Leviathans tabletop wargames."""

__version__ = "0.1.0"
