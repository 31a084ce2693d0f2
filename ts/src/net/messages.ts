/**
 * The transport's own messages (SPEC.md 9.2; tags 0x60..0x7F belong to the network layer), as
 * p2pdurak/net/messages.py. They travel one per frame. Game bytes (genesis, moves, entries, rejects) are carried
 * opaque in bin fields (cargo); the layer above decodes and checks them.
 *
 * Six share their names with a log message or a move body: here they are named as SPEC.md writes them, with the
 * prefix `net.` (net.Challenge, net.Genesis, net.Move, net.Entry, net.Reject, net.Abort). On the wire a message
 * is known by its tag alone.
 */

import {
  FieldError,
  type Kind,
  MAX_MESSAGE_SIZE,
  type MessageOf,
  PUBLIC_KEY,
  SIGNATURE,
  U8,
  DecodeError,
  bin,
  binExact,
  bool,
  decodeOneOf,
  listOf,
  message,
  nested,
  nilOr,
  str,
  textCharset,
  tokenCharset,
  u64,
  uint,
} from "../wire";
import { NetFault } from "./errors";

/** Room for the tag, an index and the bin header around carried game bytes. */
export const CARGO_MAX = MAX_MESSAGE_SIZE - 64;
const CARGO = bin(CARGO_MAX);
const CHALLENGE = binExact(32);
const REASON = str(64, 1, tokenCharset);
/** 4 (IPv4) or 16 (IPv6) bytes; empty in MeshAddress: "the address you see me at". Checked after decoding. */
const IP = bin(16);
const PORT = uint(0xffff, 1);
/** One multiaddr in its text form (ASCII), opaque to the host (9.14). */
const MULTIADDRS = listOf(bin(255, 1), 8, 1);

/** uint 1..2^64-1, held as a bigint: a move id (0 is never one). */
const MOVE_ID: Kind<bigint> = {
  decode(value) {
    const v = u64.decode(value);
    if (v < 1n) throw new FieldError(`${v} outside 1..18446744073709551615`);
    return v;
  },
  encode(value) {
    return MOVE_ID.decode(u64.encode(value));
  },
  describe: () => "uint 1..18446744073709551615",
};

/** H->C, first frame: who the host claims to be, and a fresh challenge. */
export const Challenge = message(0x60, "net.Challenge", {
  version: U8,
  game_id: binExact(16),
  host_key: PUBLIC_KEY,
  challenge: CHALLENGE,
});
/** C->H: its key, display name, its own challenge, and its signature of the client transcript. */
export const Hello = message(0x61, "Hello", {
  key: PUBLIC_KEY,
  name: str(64, 1, textCharset),
  challenge: CHALLENGE,
  signature: SIGNATURE,
});
/** H->C: the host's signature of the server transcript (the host has proven its key). */
export const Welcome = message(0x62, "Welcome", { signature: SIGNATURE });
/** C->H: give me my seat (in the lobby, a new one; later, the one my key holds in the roster). */
export const Join = message(0x63, "Join", {});
/** H->C: your seat, how many are seated, the table size, the last move id the host has from you. */
export const Seated = message(0x64, "Seated", { seat: U8, players: U8, seats: U8, moves_seen: u64 });
export const GenesisToSign = message(0x65, "GenesisToSign", { genesis: CARGO });
export const GenesisSignature = message(0x66, "GenesisSignature", { signature: bin(1024, 1) });
/** H->C: the genesis with every seat's signature; the session starts. */
export const Genesis = message(0x67, "net.Genesis", { genesis: CARGO });
/** C->H: a move; `mid` numbers this client's moves 1, 2, 3, ... so a resent move is submitted once. */
export const Move = message(0x68, "net.Move", { mid: MOVE_ID, move: CARGO });
/** H->author: move `mid` was handed to the sequencer and accepted (its entry is broadcast). */
export const Received = message(0x69, "Received", { mid: u64 });
/** H->every client: log entry number `index`. */
export const Entry = message(0x6a, "net.Entry", { index: u64, entry: CARGO });
/** H->author: the sequencer refused move `mid`; `reject` is its signed Reject. */
export const Reject = message(0x6b, "net.Reject", { mid: u64, reject: CARGO });
/** C->H: I hold `have` entries (and the signed genesis unless `genesis` is true); send the rest. */
export const CatchUp = message(0x6c, "CatchUp", { have: u64, genesis: bool });
/** H->C: the game cannot start (before the log exists); `seat` is the seat at fault, if any. */
export const Abort = message(0x6d, "net.Abort", { reason: REASON, seat: nilOr(U8) });
/** Either way: a clean close with a reason. */
export const Bye = message(0x6e, "Bye", { reason: REASON });
/** Keeps an idle connection alive. */
export const Ping = message(0x6f, "Ping", {});
/** C->H: where this seat's mesh listener takes connections from the other seats (9.11). */
export const MeshAddress = message(0x70, "MeshAddress", { ip: IP, port: PORT });
/** One seat's mesh listener, as the host knows it (nested in Peers). */
export const PeerAddress = message(0x71, "PeerAddress", { seat: U8, ip: IP, port: PORT });
/** H->C: every seat's mesh listener known so far. */
export const Peers = message(0x72, "Peers", { peers: listOf(nested(PeerAddress), 255) });
/** C->H: another seat's move, received directly over the mesh and not yet logged: submit it. */
export const Relay = message(0x73, "Relay", { move: CARGO });
/** H->the seat that relayed a move: the sequencer refused it; `reject` is its signed Reject. */
export const RelayReject = message(0x74, "RelayReject", { reject: CARGO });
/** S->S over the mesh: one of the sender's own signed moves, sent to the host at the same time. */
export const Direct = message(0x75, "Direct", { move: CARGO });
/** C->H and S->S: the sender's own signed receipt of the chain it holds (R-NET-74). */
export const Receipt = message(0x76, "net.Receipt", { receipt: bin(256, 1) });
/** S->S over the mesh: host-signed log entry number `index`, for a seat whose receipts lag ours (R-NET-75). */
export const Forward = message(0x77, "Forward", { index: u64, entry: CARGO });
/** H->C: a resumed host that lost the tail of its log asks for the entries from `index` on (R-NET-56). */
export const Recall = message(0x78, "Recall", { index: u64 });
/** C->H: where this seat's libp2p node takes mesh streams (its peer id is its roster key's, 9.14). */
export const MeshMultiaddrs = message(0x7b, "MeshMultiaddrs", { addrs: MULTIADDRS });
/** One seat's libp2p addresses, as the host knows them (nested in MultiaddrPeers). */
export const PeerMultiaddrs = message(0x7c, "PeerMultiaddrs", { seat: U8, addrs: MULTIADDRS });
/** H->C: every seat's libp2p addresses known so far. */
export const MultiaddrPeers = message(0x7d, "MultiaddrPeers", { peers: listOf(nested(PeerMultiaddrs), 255) });

/** The messages a frame may carry (PeerAddress and PeerMultiaddrs only travel nested). */
export const MESSAGES = [
  Challenge,
  Hello,
  Welcome,
  Join,
  Seated,
  GenesisToSign,
  GenesisSignature,
  Genesis,
  Move,
  Received,
  Entry,
  Reject,
  CatchUp,
  Abort,
  Bye,
  Ping,
  MeshAddress,
  Peers,
  Relay,
  RelayReject,
  Direct,
  Receipt,
  Forward,
  Recall,
  MeshMultiaddrs,
  MultiaddrPeers,
] as const;

export type NetMessage = MessageOf<(typeof MESSAGES)[number]>;

/** One frame's payload to a transport message; NetFault bad-message on anything that is not exactly one (R-NET-5). */
export function decodeNet(payload: Uint8Array, seat: number | null = null): NetMessage {
  try {
    return decodeOneOf(payload, MESSAGES, seat);
  } catch (exc) {
    if (exc instanceof DecodeError) throw new NetFault("bad-message", `${exc.reason}: ${exc.detail}`, seat);
    throw exc;
  }
}
