/** The genesis: version, suite, game id, options, host and roster, signed by every seat (SPEC.md 7.2), as
 * p2pdurak/log/genesis.py. */

import { equal, toHex } from "../bytes";
import { PROTOCOL_VERSION } from "../crypto/context";
import { type Identity, SignatureError, checkPublicKey, verify } from "../crypto/identity";
import { LocalError } from "../errors";
import { DecodeError, EncodeError, decode, encode } from "../wire";
import { LogFault, sha256 } from "./faults";
import { Genesis, GenesisData, type GenesisDataMsg, type GenesisMsg, Member } from "./messages";

export const SUITE = "secp256k1-sha256-ed25519";

/** A genesis whose every check passed; `hash` is SHA-256 of `dataBytes` (the signed GenesisData). */
export class VerifiedGenesis {
  constructor(
    readonly data: GenesisDataMsg,
    readonly dataBytes: Uint8Array,
    readonly encoded: Uint8Array,
    readonly hash: Uint8Array,
  ) {}

  get seats(): number {
    return this.data.roster.length;
  }

  get host(): number {
    return this.data.host;
  }

  get options(): Uint8Array {
    return this.data.options;
  }

  publicKey(seat: number): Uint8Array {
    const member = this.data.roster[seat];
    if (member === undefined) throw new RangeError(`seat ${seat} is not in the roster`);
    return member.public_key;
  }

  name(seat: number): string {
    return this.data.roster[seat]?.name ?? "";
  }
}

function rethrow(exc: unknown, what: string, seat: number | null = null): never {
  if (exc instanceof DecodeError) throw new LogFault(exc.reason, `${what}: ${exc.detail}`, seat);
  throw exc;
}

/** Every check of the unsigned genesis (R-LOG-5 up to the signatures; a seat runs this before it signs). */
export function checkGenesisData(dataBytes: Uint8Array): GenesisDataMsg {
  let data: GenesisDataMsg;
  try {
    data = decode(dataBytes, GenesisData);
  } catch (exc) {
    rethrow(exc, "genesis data");
  }
  if (data.version !== PROTOCOL_VERSION) throw new LogFault("unsupported-version", `protocol version ${data.version}`);
  if (data.suite !== SUITE) throw new LogFault("unsupported-suite", data.suite);
  data.roster.forEach((member, index) => {
    if (member.seat !== index) throw new LogFault("bad-roster", `roster entry ${index} is seat ${member.seat}`);
    try {
      checkPublicKey(member.public_key, index);
    } catch (exc) {
      if (exc instanceof SignatureError) throw new LogFault("bad-public-key", `seat ${index}: ${exc.detail}`, index);
      throw exc;
    }
  });
  if (new Set(data.roster.map((m) => toHex(m.public_key))).size !== data.roster.length) {
    throw new LogFault("duplicate-key", "two seats share a public key");
  }
  if (data.host >= data.roster.length) throw new LogFault("bad-host", `host seat ${data.host} is not in the roster`);
  return data;
}

/** R-LOG-5, in order: decode, the data's checks, the signature count, each seat's `genesis` signature. */
export function verifyGenesis(genesisBytes: Uint8Array): VerifiedGenesis {
  let genesis: GenesisMsg;
  try {
    genesis = decode(genesisBytes, Genesis);
  } catch (exc) {
    rethrow(exc, "genesis");
  }
  const data = checkGenesisData(genesis.data);
  if (genesis.signatures.length !== data.roster.length) {
    throw new LogFault("signature-count", `${genesis.signatures.length} signatures for ${data.roster.length} seats`);
  }
  data.roster.forEach((member, seat) => {
    try {
      verify(member.public_key, "genesis", genesis.data, genesis.signatures[seat] as Uint8Array, seat);
    } catch (exc) {
      if (exc instanceof SignatureError) throw new LogFault("bad-genesis-signature", `seat ${seat}`, seat);
      throw exc;
    }
  });
  return new VerifiedGenesis(data, genesis.data, genesisBytes, sha256(genesis.data));
}

/** The canonical GenesisData bytes every seat signs; `roster` is [name, public key] for seats 0..N-1. */
export function makeGenesisData(
  gameId: Uint8Array,
  options: Uint8Array,
  host: number,
  roster: readonly (readonly [string, Uint8Array])[],
): Uint8Array {
  const data = GenesisData.make({
    version: PROTOCOL_VERSION,
    suite: SUITE,
    game_id: gameId,
    options,
    host,
    roster: roster.map(([name, key], seat) => Member.make({ seat, name, public_key: key })),
  });
  let encoded: Uint8Array;
  try {
    encoded = encode(data);
    checkGenesisData(encoded);
  } catch (exc) {
    if (exc instanceof EncodeError || exc instanceof LogFault) throw new LocalError(exc.reason, exc.detail);
    throw exc;
  }
  return encoded;
}

/** A seat's "genesis" signature; refuses data that fails the checks, or a roster without our key (R-LOG-6). */
export function signGenesis(identity: Identity, dataBytes: Uint8Array): Uint8Array {
  let data: GenesisDataMsg;
  try {
    data = checkGenesisData(dataBytes);
  } catch (exc) {
    if (exc instanceof LogFault) throw new LocalError(exc.reason, exc.detail);
    throw exc;
  }
  if (!data.roster.some((m) => equal(m.public_key, identity.public))) {
    throw new LocalError("not-in-roster", "our key is not in this roster");
  }
  return identity.sign("genesis", dataBytes);
}
