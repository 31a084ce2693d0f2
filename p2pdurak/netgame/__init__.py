"""Real games over the network: the glue between the sans-IO peer and the trio transport (SPEC.md 9.10).

- `seat.SeatRunner`: one seat's ClientApp: checks every entry with the seat's Peer, persists it, answers it.
- `host.GameHost`: the HostApp: the Sequencer with the host seat's Peer as validator, silence time-outs, aborts.
- `store`: the seat's own game file (transcript records plus private secrets, moves and resume data).
- `table`: whole bot tables on loopback (in one process or one process per seat); `hosting` / `join`: the
  `p2pdurak host` and `join` flows; `session.NetSession`: the front end's SeatSession over TCP.
- `frontend`: the seam netgame defines and imports no implementation of: `SeatSession` and its `Change` values,
  `FrontEnd` (the terminal's is p2pdurak.ui.netfront) and `PlayerFactory` (the bots', p2pdurak.bots.players).

trio is imported here because this package is part of the network layer.
"""
