/**
 * The hello (SPEC.md 9.3, R-NET-71), as p2pdurak/net/hello.py: both ends prove they hold their Ed25519 key by
 * signing the same transcript under different roles,
 *
 *     transcript = role || 0x00 || game_id (16) || host_key (32) || host_challenge (32) || client_key (32)
 *                  || client_challenge (32)
 *
 * in domain "hello". Mesh links between seats use the roles mesh-client (the dialling seat) and mesh-server (the
 * listening seat, in the host's place), so no hello of one kind serves as another.
 */

import { concat, utf8 } from "../bytes";
import { type Identity, SignatureError, verify } from "../crypto/identity";
import { type Rng, systemRng } from "../randomness";
import { NetFault } from "./errors";

export const CHALLENGE_BYTES = 32;
export const ROLES = ["client", "server", "mesh-client", "mesh-server"] as const;
export type Role = (typeof ROLES)[number];
const CLIENT_ROLES: readonly Role[] = ["client", "mesh-client"];

export interface HelloInputs {
  readonly gameId: Uint8Array;
  readonly hostKey: Uint8Array;
  readonly hostChallenge: Uint8Array;
  readonly clientKey: Uint8Array;
  readonly clientChallenge: Uint8Array;
}

/** 32 fresh bytes from the CSPRNG: every connection's challenge is new (9.3 steps 1 and 2). */
export function freshChallenge(rng: Rng = systemRng): Uint8Array {
  return rng(CHALLENGE_BYTES);
}

export function transcript(role: Role, h: HelloInputs): Uint8Array {
  if (!ROLES.includes(role)) throw new RangeError("role must be client, server, mesh-client or mesh-server");
  const lengths = [h.gameId, h.hostKey, h.hostChallenge, h.clientKey, h.clientChallenge].map((b) => b.length);
  if (lengths.join() !== [16, 32, CHALLENGE_BYTES, 32, CHALLENGE_BYTES].join()) {
    throw new RangeError("bad hello field length");
  }
  return concat(utf8(role), Uint8Array.of(0), h.gameId, h.hostKey, h.hostChallenge, h.clientKey, h.clientChallenge);
}

export function signHello(identity: Identity, role: Role, h: HelloInputs): Uint8Array {
  return identity.sign("hello", transcript(role, h));
}

/** Throws NetFault(bad-hello) unless `signature` is the `role` side's strict signature of this transcript
 * (R-NET-11): the client's key for client and mesh-client, the host's (or listening seat's) otherwise. */
export function checkHello(signature: Uint8Array, role: Role, h: HelloInputs, seat: number | null = null): void {
  const signer = CLIENT_ROLES.includes(role) ? h.clientKey : h.hostKey;
  try {
    verify(signer, "hello", transcript(role, h), signature, seat);
  } catch (exc) {
    if (exc instanceof SignatureError) throw new NetFault("bad-hello", `${role} hello: ${exc.reason}`, seat);
    throw exc;
  }
}
