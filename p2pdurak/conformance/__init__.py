"""Conformance vectors of the peer layer and the runner for every vector file (SPEC.md 8.16, protocol/README.md).

`runner.run_all()` checks this implementation against protocol/vectors/; `vectors` writes the transcript-*.json
and peer-*.json files.
"""
