"""Test and tooling helpers that no peer runs: fixed-seed fixtures, deck simulators, cheating provers, scenario
files. The tests, the fuzzers, the adversary and the vector generators share them; the protocol core never imports
them."""
