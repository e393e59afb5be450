"""The websocket's permessage-deflate settings (server/deflate.py), measured: the CPU and the
bytes of compressing realistic streams of payloads, per zlib setting.

Hotseat games (air fleet and starship, as the load test plays them) are played with random
legal actions through the server's GameManager; each seat's payloads, in order, are one
socket's stream. Each stream is compressed as websockets does (one compressor per socket,
the context taken over from message to message, a sync flush after each), once per setting,
the settings interleaved and the best of ``--repeat`` rounds kept (process CPU time).

    .venv/bin/python bench/ws_deflate.py [--full] [--games 4] [--repeat 5]

``--full``: the game page's payloads (with the board drawing and the log), not lite ones.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
import zlib
from typing import Any

from leviathans.rulesets import get_ruleset
from leviathans.server.games import GameManager
from leviathans.server.storage import MemoryStorage

#: (label, level, window bits, memLevel): uvicorn's settings first (the baseline), then others
SETTINGS = [("uvicorn", -1, 12, 5), ("level 1, 32 kB", 1, 15, 5), ("level 2, 32 kB", 2, 15, 5),
            ("level 6, 32 kB", -1, 15, 5), ("level 1, 16 kB", 1, 14, 5),
            ("level 1, 8 kB", 1, 13, 5), ("level 1, 4 kB", 1, 12, 5)]


async def streams(games: int, full: bool, seed: int) -> list[list[bytes]]:
    """Each seat's payloads, as its socket would get them."""
    renderers: dict[str, Any] | None = None
    if full:
        from leviathans.render.svg_airfleet import board_svg
        from leviathans.render.svg_starship import table_svg

        renderers = {"airfleet": board_svg, "starship": table_svg}
    manager = GameManager(MemoryStorage())
    rng = random.Random(seed)
    out: list[list[bytes]] = []
    for n in range(games):
        ruleset, turns = (("airfleet", 6), ("starship", 2))[n % 2]
        first = get_ruleset(ruleset).players[0]
        session, tokens = await manager.create(ruleset, first, "hotseat", turn_limit=turns)
        sent: dict[str, list[bytes]] = {side: [] for side in tokens}
        while session.state.outcome is None:
            for side, token in tokens.items():
                payload = manager.payload(session, [token], renderers, with_log=full)
                sent[side].append(json.dumps({"type": "state", **payload}, ensure_ascii=False,
                                             separators=(",", ":")).encode())
            mover = tokens[session.state.to_move]
            legal = manager.payload(session, [mover])["legal"]
            await manager.act(session.game.id, mover, rng.choice(legal))
        out += sent.values()
    return out


def compress(stream_set: list[list[bytes]], level: int, bits: int, mem: int
             ) -> tuple[float, int]:
    """CPU seconds and bytes sent for every stream, compressed as websockets does."""
    sent = 0
    start = time.process_time()
    for stream in stream_set:
        encoder = zlib.compressobj(level, zlib.DEFLATED, -bits, mem)
        for message in stream:
            sent += len(encoder.compress(message) + encoder.flush(zlib.Z_SYNC_FLUSH)) - 4
    return time.process_time() - start, sent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--full", action="store_true")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    stream_set = asyncio.run(streams(args.games, args.full, args.seed))
    messages = sum(len(s) for s in stream_set)
    raw = sum(len(m) for s in stream_set for m in s)
    print(f"{len(stream_set)} sockets, {messages} payloads, mean {raw / messages:.0f} bytes")
    best: dict[str, tuple[float, int]] = {}
    for _ in range(args.repeat):
        for label, level, bits, mem in SETTINGS:
            cpu, sent = compress(stream_set, level, bits, mem)
            best[label] = (min(cpu, best.get(label, (cpu, 0))[0]), sent)
    base_cpu, base_sent = best[SETTINGS[0][0]]
    print(f"{'setting':<16} {'us/payload':>10} {'cpu':>6} {'bytes/payload':>13} {'bytes':>6}")
    for label, *_ in SETTINGS:
        cpu, sent = best[label]
        print(f"{label:<16} {cpu / messages * 1e6:>10.1f} {cpu / base_cpu:>5.2f}x "
              f"{sent / messages:>13.0f} {sent / base_sent:>5.2f}x")


if __name__ == "__main__":
    main()
