"""The circuit relay v2 every node runs (and `p2pdurak relay` for friends behind NATs): py-libp2p's, with each
circuit ending only itself.

py-libp2p 0.8.1 files a relay's circuits in one dict by peer id (a peer's later circuit takes the place of its
earlier one), and a circuit that ends closes the streams filed under its peers: those of another live circuit of
the same peer. A seat that closed its relayed link to the host after punching a hole so cut its relayed mesh link to
another seat, which then had to be dialled and punched again (the NAT lab saw the game end first). Here a circuit
closes its own two streams and unfiles itself only."""

from __future__ import annotations

import time

import trio
from libp2p.abc import INetStream
from libp2p.peer.id import ID
from libp2p.relay.circuit_v2.protocol import CircuitV2Protocol
from libp2p.relay.circuit_v2.protocol_buffer import StatusCode


class OwnCircuits(CircuitV2Protocol):
    async def _relay_data(self, src_stream: INetStream, dst_stream: INetStream, peer_id: ID,
                          deadline: float | None = None, circuit_data_limit: list[int] | None = None) -> None:
        """One direction of a circuit, as py-libp2p relays it (the duration and the circuit's shared data budget
        end it with a status and resets), until its source ends; then this circuit's streams are closed."""
        try:
            while True:
                if deadline is not None and time.monotonic() > deadline:
                    await self._over_limit(src_stream, dst_stream, "Circuit duration limit exceeded")
                    return
                data = await self._read_stream_with_retry(src_stream)
                if not data:
                    return
                if circuit_data_limit is not None:
                    if len(data) > circuit_data_limit[0]:
                        await self._over_limit(src_stream, dst_stream, "Data transfer limit exceeded")
                        return
                    circuit_data_limit[0] -= len(data)
                with trio.fail_after(self.write_timeout):
                    await dst_stream.write(data)
        except Exception:  # as py-libp2p's: a reset, a closed stream or a slow write ends the circuit, nothing else
            return
        finally:
            for stream in (src_stream, dst_stream):
                await self._close_stream(stream)
            filed = self._active_relays.get(peer_id)
            if filed is not None and all(s is None or s is src_stream or s is dst_stream for s in filed):
                del self._active_relays[peer_id]

    async def _over_limit(self, src_stream: INetStream, dst_stream: INetStream, why: str) -> None:
        await self._send_status(src_stream, StatusCode.RESOURCE_LIMIT_EXCEEDED, why)
        await src_stream.reset()
        await dst_stream.reset()
