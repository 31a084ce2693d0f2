"""Real games over the network: the glue between the sans-IO peer and the trio transport.

A seat runner drives one Peer from a Client's entries (persisting everything before it acts); the game host runs
the sequencer with the host seat's own Peer as its validator and arms the silence time-outs. `selfplay` builds a
whole table of bots on loopback TCP. trio is imported here because this package is part of the network layer.
"""
