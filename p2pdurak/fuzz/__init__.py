"""Property-based fuzzing of the decoder, the log, the deck messages and the peer (issue 7).

Each target (see `targets.TARGETS`) pairs a hypothesis strategy of inputs, arbitrary bytes and mutations of real
valid inputs, with a check of the properties that must hold for every input. The CI tests run each target with a
bounded, derandomized number of inputs; `python -m p2pdurak.fuzz TARGET --budget N` or `--seconds S` runs longer.
Hypothesis is a test dependency: nothing outside this package and the tests imports it.
"""
