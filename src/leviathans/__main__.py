"""``python -m leviathans``: the same as the ``leviathans`` command."""

import sys

from .cli import main

sys.exit(main())
