/**
 * WebCrypto's Ed25519 for the seat's signatures (R-LOG-2), where the platform has it: a page in a secure context
 * (https, or localhost), and Node. Rules 1-3 are checked first, by the core's own code (`checkStrict`); WebCrypto then
 * answers rule 4, the equation, in native code, and only if it gave R-LOG-2's four known answers when it was opened
 * (a cofactored verify fails two of them). Elsewhere (a page on plain http at a LAN address has no `crypto.subtle`)
 * the core checks the equation on noble's arithmetic, as it does for whatever this module did not check.
 *
 * WebCrypto answers asynchronously and the core is synchronous, so the seat asks ahead: before a frame from the host
 * reaches the core, `checkFrame` verifies the signatures a net.Entry carries (the host's over the entry, the author's
 * over the move) and puts the ones that pass in the core's `CHECKED`, where `verify` finds them.
 */

import { fromHex, toHex } from "../bytes";
import { CHECKED, type CheckedSignatures, KNOWN_ANSWERS, KNOWN_MESSAGE } from "../crypto/ed25519";
import { checkStrict, signedBytes } from "../crypto/identity";
import { PeerFault } from "../errors";
import { Entry, EntryData, Move, MoveData } from "../log/messages";
import type { VerifiedGenesis } from "../log/genesis";
import * as m from "../net/messages";
import { decode } from "../wire";

const ED25519 = { name: "Ed25519" } as const;

/** One signature to check: the signer's public key, the domain, the message and the signature. */
export type SignatureToCheck = readonly [Uint8Array, string, Uint8Array, Uint8Array];

export class SubtleEd25519 {
  private readonly keys = new Map<string, Promise<CryptoKey>>();

  private constructor(
    private readonly subtle: SubtleCrypto,
    private readonly into: CheckedSignatures,
  ) {}

  /** WebCrypto's Ed25519, or null where there is none or it fails a known answer (the core's equation then). */
  static async open(into: CheckedSignatures = CHECKED): Promise<SubtleEd25519 | null> {
    const subtle = globalThis.crypto?.subtle;
    if (subtle === undefined) return null;
    const candidate = new SubtleEd25519(subtle, into);
    try {
      for (const [key, signature, accept] of KNOWN_ANSWERS) {
        if ((await candidate.satisfiesEquation(fromHex(key), KNOWN_MESSAGE, fromHex(signature))) !== accept) return null;
      }
    } catch {
      return null; // (no Ed25519 in this WebCrypto: importKey refuses the algorithm)
    }
    return candidate;
  }

  /** R-LOG-2 in full, as the core's `verify`: rules 1-3 here, rule 4 by WebCrypto. */
  async verify(publicKey: Uint8Array, domain: string, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
    try {
      checkStrict(publicKey, signature);
    } catch (exc) {
      if (exc instanceof PeerFault) return false;
      throw exc;
    }
    try {
      return await this.satisfiesEquation(publicKey, signedBytes(domain, message), signature);
    } catch {
      return false; // (WebCrypto refused the bytes: the core's own check will say why)
    }
  }

  /** Verify each and keep the ones that pass for the core (a failing one is left to the core, which names it). */
  async check(signatures: readonly SignatureToCheck[]): Promise<void> {
    await Promise.all(
      signatures.map(async ([publicKey, domain, message, signature]) => {
        if (await this.verify(publicKey, domain, message, signature)) {
          this.into.add(publicKey, signedBytes(domain, message), signature);
        }
      }),
    );
  }

  /** The signatures of a frame from the host that the core will check: a net.Entry's two. */
  async checkFrame(payload: Uint8Array, genesis: VerifiedGenesis | null): Promise<void> {
    if (genesis === null) return;
    let msg: m.NetMessage;
    try {
      msg = m.decodeNet(payload);
    } catch {
      return; // (the link says what is wrong with it)
    }
    if (msg.type === m.Entry.name) await this.check(entrySignatures(genesis, msg.entry as Uint8Array));
  }

  /** Every signature of entries a seat replays from its records (a reloaded page), all at once. */
  async checkEntries(genesis: VerifiedGenesis, entries: readonly Uint8Array[]): Promise<void> {
    await this.check(entries.flatMap((entry) => entrySignatures(genesis, entry)));
  }

  /** Rule 4 alone: WebCrypto's verify of `signed` (the domain's prefix included), as the core's `satisfiesEquation`;
   * throws where WebCrypto refuses the bytes outright. */
  async satisfiesEquation(publicKey: Uint8Array, signed: Uint8Array, signature: Uint8Array): Promise<boolean> {
    const hex = toHex(publicKey);
    let key = this.keys.get(hex);
    if (key === undefined) {
      key = this.subtle.importKey("raw", publicKey.slice(), ED25519, false, ["verify"]);
      if (this.keys.size > 64) this.keys.clear();
      this.keys.set(hex, key);
      key.catch(() => this.keys.delete(hex));
    }
    return this.subtle.verify(ED25519, await key, signature.slice(), signed.slice());
  }
}

/** What a host-signed entry asks the core to verify: the host's `entry` signature and its move's `move` signature
 * (none of what does not decode or names no seat: the core finds that itself). */
export function entrySignatures(genesis: VerifiedGenesis, entryBytes: Uint8Array): SignatureToCheck[] {
  const out: SignatureToCheck[] = [];
  try {
    const entry = decode(entryBytes, Entry);
    out.push([genesis.publicKey(genesis.host), "entry", entry.data, entry.signature]);
    const move = decode(decode(entry.data, EntryData).move, Move);
    const author = decode(move.data, MoveData).author;
    if (author < genesis.seats) out.push([genesis.publicKey(author), "move", move.data, move.signature]);
  } catch (exc) {
    if (!(exc instanceof PeerFault)) throw exc;
  }
  return out;
}
