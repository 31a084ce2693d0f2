"""Conformance vectors and the runner for every vector file (SPEC.md 8.16, protocol/README.md).

`runner.run_all()` checks this implementation against protocol/vectors/ (`p2pdurak conformance`). The generators:
`vectors` (transcript-*.json, peer-*.json), `wire_vectors`, `log_vectors`, `transport_vectors` (net-messages.json),
`crypto_vectors`, `shuffle_vectors` and `rules_vectors`; `regenerate` runs them all (`--check`: compare only).
"""
