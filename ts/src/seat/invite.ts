/** Invite links and the table code (SPEC.md 9.4), as p2pdurak/net/links.py: which host key and game a seat accepts,
 * and the code players compare aloud. The browser seat reaches the host through the page's own origin, so the
 * link's HOST:PORT only matters to a seat that dials TCP itself. */

import { sha256 } from "@noble/hashes/sha2.js";
import { concat, utf8 } from "../bytes";
import { LocalError } from "../errors";

export const SCHEME = "durak://";
export const P2P_SCHEME = "durak+p2p://";
export const FINGERPRINT_CHARS = 24;
export const SHORT_FINGERPRINT_CHARS = 12;
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";
const BASE32_TEXT = /^[a-z2-7]+$/;
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export class InviteError extends LocalError {
  constructor(message: string) {
    super("bad-invite", message);
  }
}

/** Where to connect and which host key to accept; a short invite has no game id and a fingerprint prefix. */
export interface Invite {
  readonly host: string;
  readonly port: number;
  readonly fingerprint: string;
  readonly gameId: Uint8Array | null;
}

/** Does a host with this key fingerprint and game id match the invite (R-NET-22)? */
export function accepts(invite: Invite, hostFingerprint: string, gameId: Uint8Array): boolean {
  if (invite.gameId !== null && !sameBytes(invite.gameId, gameId)) return false;
  return hostFingerprint.length === FINGERPRINT_CHARS && hostFingerprint.startsWith(invite.fingerprint);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function base32(data: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of data) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function checkFingerprint(text: string, short: boolean): string {
  const fp = short ? text.trim().toLowerCase().replaceAll("-", "") : text.trim().toLowerCase();
  const want = short ? SHORT_FINGERPRINT_CHARS : FINGERPRINT_CHARS;
  if (fp.length !== want || !BASE32_TEXT.test(fp)) {
    throw new InviteError(`the key fingerprint must be ${want} characters a-z and 2-7, got ${JSON.stringify(text)}`);
  }
  return fp;
}

export function parseGameId(text: string): Uint8Array {
  const t = text.trim().toLowerCase();
  if (t.length === 32 && /^[0-9a-f]+$/.test(t)) {
    return Uint8Array.from({ length: 16 }, (_, i) => parseInt(t.slice(2 * i, 2 * i + 2), 16));
  }
  if (t.length === 26 && BASE32_TEXT.test(t)) {
    const out = new Uint8Array(16);
    let bits = 0;
    let value = 0;
    let k = 0;
    for (const ch of t) {
      value = ((value << 5) | BASE32.indexOf(ch)) & 0xfff;
      bits += 5;
      if (bits >= 8) {
        out[k++] = (value >>> (bits - 8)) & 0xff;
        bits -= 8;
      }
    }
    if (base32(out) === t) return out;
  }
  throw new InviteError(`the game id must be 32 hex digits or 26 base32 characters, got ${JSON.stringify(text)}`);
}

function splitHostPort(text: string): [string, number] {
  let host: string;
  let portText: string;
  if (text.startsWith("[")) {
    const end = text.indexOf("]");
    if (end < 0 || text[end + 1] !== ":") throw new InviteError("an IPv6 address must be written [ADDRESS]:PORT");
    host = text.slice(1, end).toLowerCase();
    portText = text.slice(end + 2);
    if (!/^[0-9a-f:.]+$/.test(host) || !host.includes(":")) throw new InviteError(`not an IPv6 address: ${host}`);
  } else {
    const colon = text.lastIndexOf(":");
    if (colon <= 0) throw new InviteError(`expected HOST:PORT, got ${JSON.stringify(text)}`);
    host = text.slice(0, colon).toLowerCase();
    portText = text.slice(colon + 1);
    if (host.includes(":")) throw new InviteError("an IPv6 address must be written [ADDRESS]:PORT");
    if (!IPV4.test(host) && (!HOSTNAME.test(host) || /^[\d.]+$/.test(host))) {
      throw new InviteError(`not a host name or IP address: ${JSON.stringify(host)}`);
    }
  }
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : 0;
  if (port < 1 || port > 65535) throw new InviteError(`the port must be a number 1..65535, got ${JSON.stringify(portText)}`);
  return [host, port];
}

/** A `durak://HOST:PORT/GAME-ID#FINGERPRINT` link or a short invite `HOST:PORT abcd-efgh-ijkl` (R-NET-20, R-NET-21).
 * Of a libp2p link (R-NET-24, a host under `--transport libp2p`) only the game id and the fingerprint are taken,
 * with no address (host "", port 0): a browser seat dials no libp2p address, it reaches that host at its web port
 * (R-NET-103), and the two pin the host's key and game as for any link (R-NET-22). */
export function parseInvite(text: string): Invite {
  const t = text.trim();
  if (t.toLowerCase().startsWith(P2P_SCHEME)) {
    const rest = t.slice(P2P_SCHEME.length);
    const slash = rest.indexOf("/");
    const hash = rest.lastIndexOf("#");
    if (slash <= 0 || hash < slash) throw new InviteError("expected durak+p2p://PEER-ID/GAME-ID?addr=...#FINGERPRINT");
    const query = rest.indexOf("?", slash);
    const end = query >= 0 && query < hash ? query : hash;
    return { host: "", port: 0, fingerprint: checkFingerprint(rest.slice(hash + 1), false),
      gameId: parseGameId(rest.slice(slash + 1, end)) };
  }
  if (t.toLowerCase().startsWith(SCHEME)) {
    const rest = t.slice(SCHEME.length);
    const slash = rest.indexOf("/");
    const hash = rest.indexOf("#", slash);
    if (slash < 0 || hash < 0) throw new InviteError("expected durak://HOST:PORT/GAME-ID#FINGERPRINT");
    const [host, port] = splitHostPort(rest.slice(0, slash));
    return {
      host,
      port,
      fingerprint: checkFingerprint(rest.slice(hash + 1), false),
      gameId: parseGameId(rest.slice(slash + 1, hash)),
    };
  }
  if (t.includes("://")) throw new InviteError(`an invite link starts with ${SCHEME}`);
  const parts = t.split(/\s+/);
  if (parts.length !== 2) throw new InviteError("expected a durak:// link or HOST:PORT followed by the 12-character key code");
  const [host, port] = splitHostPort(parts[0] as string);
  return { host, port, fingerprint: checkFingerprint(parts[1] as string, true), gameId: null };
}

/** Three groups of four base32 characters (60 bits) of the genesis hash (R-NET-23). */
export function tableCode(genesisHash: Uint8Array): string {
  if (genesisHash.length !== 32) throw new LocalError("bad-genesis-hash", "the genesis hash is 32 bytes");
  const code = base32(sha256(concat(utf8("p2pdurak/v1/table-code"), Uint8Array.of(0), genesisHash)).subarray(0, 10));
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}`;
}
