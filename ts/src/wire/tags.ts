/**
 * Every message tag SPEC.md defines (sections 7 to 9), whichever modules a bundle has imported, as
 * p2pdurak/wire/tags.py. R-WIRE-9: a tag that no type of the specification has is `unknown-type`; a type of another
 * layer than the one a receiver expects is `unexpected-type`. A bundle without the transport (the verifier) must
 * still tell a transport message in a move body apart from a reserved tag, so the wire layer knows the whole table;
 * test/net.test.ts checks that it matches the registered types exactly.
 */

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/** 7.2-7.8: Member .. Receipt. */
export const LOG_TAGS: ReadonlySet<number> = new Set(range(0x01, 0x0f));
/** 8.2, 8.3: GameOptions and the eleven move bodies. */
export const PEER_TAGS: ReadonlySet<number> = new Set(range(0x20, 0x2c));
/** 9.2: the transport messages. */
export const NET_TAGS: ReadonlySet<number> = new Set([...range(0x60, 0x79), 0x7b, 0x7c, 0x7d]);
export const DEFINED_TAGS: ReadonlySet<number> = new Set([...LOG_TAGS, ...PEER_TAGS, ...NET_TAGS]);
