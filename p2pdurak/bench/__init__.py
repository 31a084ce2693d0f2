"""Benchmarks behind `p2pdurak bench`: one module per topic, each with run() -> dict of figures."""
