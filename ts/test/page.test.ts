/** Where the page's seat connects (SPEC.md R-NET-103): its own /seat, or a browser link's for a page served
 * elsewhere (p2pdurak web-peer). */

import assert from "node:assert/strict";
import { test } from "node:test";
import { toHex } from "../src/bytes";
import { seatTarget } from "../src/page/main";
import { parseInvite } from "../src/seat/invite";

const INVITE = "durak://192.168.1.20:40123/5f2c0a0b0c0d0e0f0a0b0c0d0e0f0a0b#k3d7k3d7k3d7k3d7k3d7k3d7";

test("the page's own /seat, the invite as written or percent-encoded", () => {
  assert.deepEqual(seatTarget(`#${INVITE}`, "192.168.1.20:40124", false),
    { invite: INVITE, url: "ws://192.168.1.20:40124/seat" });
  assert.deepEqual(seatTarget(`#${encodeURIComponent(INVITE)}`, "h:1", true), { invite: INVITE, url: "wss://h:1/seat" });
  assert.deepEqual(seatTarget("", "h:1", false), { invite: "", url: "ws://h:1/seat" });
});

test("a page served elsewhere takes the host's /seat from the browser link in its fragment", () => {
  const browser = `http://192.168.1.20:40124/#${INVITE}`;
  const expected = { invite: INVITE, url: "ws://192.168.1.20:40124/seat" };
  assert.deepEqual(seatTarget(`#${browser}`, "localhost:8000", false), expected);
  assert.deepEqual(seatTarget(`#${encodeURIComponent(browser)}`, "localhost:8000", true), expected);
  assert.deepEqual(seatTarget("#http://[fd00::1]:8/#x", "localhost:8000", false), { invite: "x", url: "ws://[fd00::1]:8/seat" });
  assert.deepEqual(seatTarget("#http://", "localhost:8000", false), { invite: "", url: "" });
});

test("a libp2p host's link gives the game id and the fingerprint, no address (R-NET-24, R-NET-103)", () => {
  const gameId = "5f2c0a0b0c0d0e0f0a0b0c0d0e0f0a0b";
  const link = `durak+p2p://12D3KooWD6zGgBJVHgt5b12XBADf9xdNbmxTHA2c2CoocrSppaxN/${gameId}` +
    "?addr=/ip4/192.168.1.20/tcp/4001&addr=/ip4/1.2.3.4/tcp/4001/p2p/12D3KooWRelay/p2p-circuit#k3d7k3d7k3d7k3d7k3d7k3d7";
  const invite = parseInvite(link);
  assert.deepEqual([invite.host, invite.port, invite.fingerprint], ["", 0, "k3d7k3d7k3d7k3d7k3d7k3d7"]);
  assert.equal(toHex(invite.gameId ?? new Uint8Array()), gameId); // (no Buffer: this file runs in browsers too)
  assert.equal(parseInvite(`durak+p2p://x/${gameId}#k3d7k3d7k3d7k3d7k3d7k3d7`).fingerprint, "k3d7k3d7k3d7k3d7k3d7k3d7");
  for (const bad of ["durak+p2p://", `durak+p2p://x/${gameId}`, `durak+p2p://x/nothex#k3d7k3d7k3d7k3d7k3d7k3d7`,
    `durak+p2p://x/${gameId}#short`]) {
    assert.throws(() => parseInvite(bad), /bad-invite|expected|game id|fingerprint/i, bad);
  }
});
