"""The 8 Nations (option ``nations``, on the Commander rules): each nation's special action and
special slots (``../rules``: N1-N9), one module per nation, named for it.

What the nations' rules keep during a game lives in one value, :class:`.NationsState`
(``GameState.nations``; ``None`` when the option is off). The slots are compiled by the
ship compiler from the slot-kind table (``slot_kinds.py``): ``ShipSpec.special(effect)`` is the
mask of a ship's slots with that effect, and a special slot that is also a plain kind (a
Resolute gun is a gun, a Lungo a torpedo) plays as that kind everywhere else.
"""
