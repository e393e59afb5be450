"""PettingZoo environments for AI research: one AEC environment per rule set.

Each environment (air fleet, with fog-of-war initiative too; starship; War Fleet) has a
fixed ``Discrete`` action space per setup (every action that can ever be legal there), an
action mask of the legal ones, and observations built only from what the player may see.
Random agents play them in ``examples/random_agents.py``.

>>> import numpy as np
>>> from leviathans.env import AirFleetEnv, StarshipEnv
>>> env = AirFleetEnv()
>>> env.reset(seed=1)
>>> env.agent_selection, env.action_space("british")
('british', Discrete(1133))
>>> obs, reward, terminated, truncated, info = env.last()
>>> first = int(np.flatnonzero(obs["action_mask"])[0])
>>> env.action_text(first), env.action_index("HML Hertfordshire@0202:N") == first
('HML Hertfordshire@0202:N', True)
>>> env = StarshipEnv()
>>> env.reset(seed=1)
>>> env.action_space("red"), env.observation_space("red")["observation"].shape
(Discrete(1656), (560,))
>>> from leviathans.env import WarFleetEnv
>>> env = WarFleetEnv("fleet-action")
>>> env.reset(seed=1)
>>> env.action_space("british"), env.observation_space("british")["observation"].shape
(Discrete(660505), (1812,))
>>> AirFleetEnv(initiative="fog-of-war").action_space("british")
Discrete(1709)

See docs/env.md for the encodings.
"""

from __future__ import annotations

from .airfleet import AirFleetEnv
from .base import ActionTable, LeviathansEnv, ObservationEncoder, is_turn_limit
from .starship import StarshipEnv
from .warfleet import WarFleetConfig, WarFleetEnv

__all__ = [
    "ActionTable",
    "AirFleetEnv",
    "LeviathansEnv",
    "ObservationEncoder",
    "StarshipEnv",
    "WarFleetConfig",
    "WarFleetEnv",
    "is_turn_limit",
]
