/**
 * `node --experimental-websocket build/scripts/seat.js LINK [--seed N] [--move-timeout S] [--censor-timeout S]`:
 * the browser seat's session (src/seat/: the link, the runner with its clocks, the mesh links it dials, the easy bot)
 * in node, its records in memory, so `p2pdurak conformance --peer` can drive it as it drives any implementation
 * (protocol/README.md):
 *
 *   p2pdurak conformance --peer \
 *     'node --experimental-websocket ts/build/scripts/seat.js {link} --seed {seed} --move-timeout {move_timeout}'
 *
 * What differs from the page: the host link's transport (TCP here, a WebSocket there; the mesh links are WebSockets in
 * both) and the records (memory here, IndexedDB there); like the page, it checks public values with libsecp256k1 in
 * WebAssembly. Prints how the seat ended; exit 0 when the game ended (the
 * host's Bye "game-over").
 */

import { Identity } from "../src/crypto/identity";
import { installWasmGroup } from "../src/crypto/secp256k1_wasm";
import { seededRng, systemRng } from "../src/randomness";
import { easyChooser } from "../src/seat/bot";
import { runSeat } from "../src/seat/driver";
import { prepareSeat } from "../src/seat/join";
import { webSocketMesh } from "../src/seat/mesh";
import { MemoryFiles } from "../src/seat/store";
import { SubtleEd25519 } from "../src/seat/subtle";
import { TcpTransport } from "../src/seat/tcp";

function option(name: string): string | null {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? null) : null;
}

// the mesh as the page makes it: we listen nowhere and dial every seat that listens, a WebSocket to /mesh on its TCP
// mesh port (R-NET-76; a seat accepts a lower seat's dial only so). Node 20 has WebSocket behind a flag.
if (typeof WebSocket === "undefined") {
  console.error("this seat dials its mesh links over WebSocket: run node with --experimental-websocket (Node 20)");
  process.exit(2);
}
installWasmGroup();
const link = process.argv[2];
if (link === undefined || link.startsWith("--")) {
  console.error("usage: node --experimental-websocket build/scripts/seat.js LINK [--seed N] [--move-timeout S] "
    + "[--censor-timeout S]");
  process.exit(2);
}
const seed = option("--seed");
const moveTimeout = option("--move-timeout");
const censorTimeout = option("--censor-timeout");
const rng = seed === null ? systemRng : seededRng(`ts-seat ${seed}`);
const identity = Identity.generate(rng);
const seat = prepareSeat(identity, "TypeScript", link, new MemoryFiles(), {
  player: easyChooser(rng),
  rng,
  ...(moveTimeout === null ? {} : { moveTimeout: Number(moveTimeout) }),
  ...(censorTimeout === null ? {} : { censorTimeout: Number(censorTimeout) }),
});
const host = new TcpTransport(seat.invite.host, seat.invite.port);
// (Node's WebCrypto has Ed25519: the signatures go through it first, as in a page served over https)
const ending = await runSeat(seat.link, seat.runner, host, { meshDial: webSocketMesh, subtle: await SubtleEd25519.open() });
console.log(`ended: ${ending.kind} ${ending.reason}${ending.seat === null ? "" : ` (seat ${ending.seat})`}`);
for (const error of seat.runner.errors) console.log(`error: ${error}`);
process.exit(ending.kind === "bye" && ending.reason === "game-over" ? 0 : 1);
