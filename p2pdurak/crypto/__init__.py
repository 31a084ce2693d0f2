"""Pure, deterministic cryptography: the group, card encoding, the deck protocol, proofs and signatures."""
