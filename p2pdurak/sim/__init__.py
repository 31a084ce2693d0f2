"""The deterministic adversarial table simulator (`p2pdurak sim`, issue 23), in the manner of FoundationDB's
simulation testing and TigerBeetle's VOPR.

A whole table runs in one process on simulated time: the real `Peer`s, the real seat logic (`SeatRunner`, its
`MoveWitness`), the real host (`GameHost`, its `Sequencer`, the server's `SilenceClocks`) and the bots, joined by
simulated links (each seat's connection to the host, and the mesh) whose latency, losses and cuts come from one
seed. An adversary chosen by that seed controls the host and/or a minority of seats and every link. After the run
the invariants are checked; a failing seed replays exactly. Tooling: nothing in the core imports it.
"""
