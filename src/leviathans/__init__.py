"""leviathans: rules engine, tools and browser game for the Leviathans tabletop wargames."""

from . import native as _native

__version__ = "0.1.0"

# before any rules module is imported: the compiled ones when a build matches the sources
_native.install()
