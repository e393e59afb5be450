"""The websocket protocol `leviathans serve` runs uvicorn with: uvicorn's own (on websockets'
sans-I/O implementation), with permessage-deflate set for this server's stream of payloads.

A socket is sent one game's payloads one after another, each mostly the previous one again (a
lite payload is some 5 kB, a full one with its drawing some 70 kB). uvicorn's settings (a 4 kB
window, zlib's default level 6) cannot reach back to the previous payload and compress each
almost afresh; a 32 kB window holds the last lite payload whole, and zlib's fastest level then
finds the long matches cheaply. Measured with ``bench/ws_deflate.py`` (seeded hotseat games,
every payload of each seat in order, compressed as websockets does), against uvicorn's:

* lite payloads (4.6 kB on average): 0.30x the CPU, 0.35x the bytes;
* full payloads (63 kB): 0.39x the CPU, 0.93x the bytes.

zlib's level 6 with the same window sends fewer bytes still (0.18x, 0.67x) but costs 0.49x and
1.31x the CPU; level 2, 0.29x and 0.44x the CPU for 0.32x and 0.89x the bytes.

The cost is memory: each socket's compressor holds some 144 kB instead of 32 kB. What the
clients send (short actions) is decompressed with uvicorn's window (4 kB) as before.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

__all__ = ["COMPRESS", "DeflateProtocol", "deflate_factory"]

#: zlib's settings for the payloads this server sends (``zlib.compressobj`` keywords)
COMPRESS = {"level": 1, "memLevel": 5}
#: the window (bits) of what clients send, as uvicorn sets it; the payloads' window is left
#: unset: zlib's largest (15 bits, 32 kB), or a smaller one if the client asks for it
CLIENT_WINDOW_BITS = 12


def deflate_factory() -> ServerPerMessageDeflateFactory:
    """permessage-deflate as this server offers it (context taken over between messages)."""
    return ServerPerMessageDeflateFactory(client_max_window_bits=CLIENT_WINDOW_BITS,
                                          compress_settings=dict(COMPRESS))


class DeflateProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol with :func:`deflate_factory`'s compression (uvicorn builds
    its extension with fixed settings in its ``__init__``: the connection is made again here,
    before any byte has reached it)."""

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any],
                 _loop: Any = None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if config.ws_per_message_deflate:
            self.conn = ServerProtocol(extensions=[deflate_factory()],
                                       max_size=config.ws_max_size, logger=self.conn.logger)
