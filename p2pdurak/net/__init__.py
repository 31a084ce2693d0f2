"""The trio network transport: framing, hello, invite links, host (sequencer) server and client.

The transport carries opaque move, entry and genesis bytes; it knows nothing of the game. The layer above plugs in
through `HostApp` and `ClientApp` (plain synchronous callbacks). trio is imported only inside this package.
"""
