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

Many games at once, with numpy arrays (gymnasium's vector API), come from
:class:`~.vector.BatchedEnv`:

>>> from leviathans.env import BatchedEnv, random_actions
>>> batch = BatchedEnv(AirFleetEnv, 4)
>>> obs, infos = batch.reset(seed=7)
>>> obs["observation"].shape, obs["action_mask"].shape, infos["agent"].tolist()
((4, 375), (4, 1133), [0, 0, 0, 0])
>>> obs, rewards, terminated, truncated, infos = batch.step(
...     random_actions(obs["action_mask"], np.random.default_rng(0)))
>>> rewards.shape, terminated.dtype.name
((4,), 'bool')

See docs/env.md for the encodings.
"""

from __future__ import annotations

from .airfleet import AirFleetEnv
from .base import ActionTable, LeviathansEnv, ObservationEncoder, is_turn_limit
from .starship import StarshipEnv
from .vector import BatchedEnv, random_actions
from .warfleet import WarFleetConfig, WarFleetEnv

__all__ = [
    "ActionTable",
    "AirFleetEnv",
    "BatchedEnv",
    "LeviathansEnv",
    "ObservationEncoder",
    "StarshipEnv",
    "WarFleetConfig",
    "WarFleetEnv",
    "is_turn_limit",
    "random_actions",
]
