"""Scripted misbehaviour over real TCP: lying seats, a lying host, hostile bytes (issue 7).

Used by the adversarial test suite (`tests/adversarial/`) and by `p2pdurak conformance --peer`, which turns the
same lies against another implementation's seat.
"""
