/** The TypeScript seat's mesh links (SPEC.md R-NET-76): at a table of three, the Python host's computer player
 * (seat 0), a Python seat with its mesh listener (seat 1) and our seat (seat 2, over TCP to the host, as the page
 * is over /seat), our seat dials `ws://127.0.0.1:PORT/mesh` to seat 1, and issue 23's lying hosts
 * (p2pdurak/adversary/outside.py) try to make one of the two lose: by hiding its first move in play and naming it
 * silent (the other seat holds the move from the link, refuses the claim and accuses the host), or by sending it no
 * entry once it is due (the other forwards them). The starved games run to the end and check the link both ways:
 * moves, receipts, forwarded entries. Needs a Python that imports p2pdurak (P2PDURAK_PYTHON, else `python`), and a
 * WebSocket in Node (scripts/test.mjs turns it on for Node 20). */

import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { equal } from "../src/bytes";
import { Identity } from "../src/crypto/identity";
import { seededRng } from "../src/randomness";
import { easyChooser } from "../src/seat/bot";
import { runSeat } from "../src/seat/driver";
import { parseInvite } from "../src/seat/invite";
import { HostLink } from "../src/seat/link";
import { webSocketMesh } from "../src/seat/mesh";
import { SeatRunner } from "../src/seat/runner";
import { MemoryFiles } from "../src/seat/store";
import { TcpTransport } from "../src/seat/tcp";

const REPO = resolve(process.cwd(), "..");
const PYTHON = process.env.P2PDURAK_PYTHON ?? "python";
const US = 2;
const FAST = { keepalive: 0.5, idleTimeout: 3, tick: 0.1 };

interface Inside {
  ending: string | null;
  failure: string | null;
  accused: number | null;
  seconded: number[];
  direct_from: Record<string, number>;
  taken: Record<string, number>;
  forwarded: number;
  relayed: number[] | null;
}

interface Report {
  valid: boolean;
  how: string | null;
  result: { forfeit: number | null; forfeit_reason: string | null; durak: number | null } | null;
  accusation: { reason: string; accused: number } | null;
}

function missing(): string | false {
  const probe = spawnSync(PYTHON, ["-c", "import p2pdurak.adversary.outside"], { cwd: REPO, encoding: "utf8" });
  if (probe.status !== 0) return `no Python that imports p2pdurak (${PYTHON}; set P2PDURAK_PYTHON)`;
  return typeof WebSocket === "undefined" ? "no WebSocket in this Node (run it with --experimental-websocket)" : false;
}

type Summary = Record<"0" | "1", Inside> & { timed_out: boolean };

function startTable(dir: string, ...lie: string[]): [ChildProcess, Promise<string>, Promise<Summary>, string[]] {
  const table = spawn(PYTHON, ["-m", "p2pdurak.adversary.outside", dir, ...lie], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  table.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  let found: (link: string) => void = () => undefined;
  const link = new Promise<string>((ok) => {
    found = ok;
  });
  const summary = new Promise<Summary>((ok, failed) => {
    const lines = createInterface({ input: table.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      output.push(line);
      if (line.startsWith("invite link:")) found(line.trim().split(/\s+/).pop() as string);
      else if (line.startsWith("{")) ok(JSON.parse(line) as Summary);
    });
    table.once("exit", (code) => failed(new Error(`the table exited ${code}: ${output.join("\n")}`)));
  });
  return [table, link, summary, output];
}

function verify(path: string): Report {
  const checked = spawnSync(PYTHON, ["-m", "p2pdurak", "verify", "--json", path], { cwd: REPO, encoding: "utf8" });
  return JSON.parse(checked.stdout) as Report;
}

async function playOurSeat(link: string, seed: string, moveTimeout = 3): Promise<[SeatRunner, Awaited<ReturnType<typeof runSeat>>]> {
  const invite = parseInvite(link);
  const identity = Identity.generate(seededRng(`${seed} identity`));
  const runner = new SeatRunner(identity, new MemoryFiles(), {
    player: easyChooser(seededRng(`${seed} bot`)),
    rng: seededRng(`${seed} deck`),
    censorTimeout: Math.max(4, moveTimeout + 1),
    moveTimeout,
    hostTimeout: Math.max(12, 4 * moveTimeout),
  });
  const hostLink = new HostLink(identity, "Tess", invite, { rng: seededRng(`${seed} hello`) });
  const ending = await runSeat(hostLink, runner, new TcpTransport(invite.host, invite.port), { meshDial: webSocketMesh, config: FAST });
  return [runner, ending];
}

test("a host that hides our move gets no transcript that verifies with our seat losing: seat 1 holds it from the link", { timeout: 180_000 }, async (t) => {
  const why = missing();
  if (why) {
    t.skip(why);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "p2pdurak-mesh-"));
  const [table, link, summary, output] = startTable(dir, "--hide", String(US));
  try {
    const [runner] = await playOurSeat(await link, "mesh hidden");
    const inside = await summary;
    const log = output.join("\n");
    assert.equal(inside.timed_out, false, log);
    assert.ok((inside["1"].direct_from[String(US)] ?? 0) > 0, `our moves reached seat 1 over the link: ${log}`);
    assert.ok(!inside["1"].seconded.includes(US), "seat 1 signed no claim against us");
    assert.equal(inside["1"].accused, US, "seat 1 accused the host of hiding our move");
    assert.ok(runner.accusation !== null, `we accused the host: ${runner.errors.join("; ")}`);
    writeFileSync(join(dir, "ours.dlog"), runner.transcript());
    for (const name of ["host.dlog", "seat-1.dlog", "ours.dlog"]) {
      const report = verify(join(dir, name));
      const lost = report.valid && report.result !== null && (report.result.forfeit === US || report.result.durak === US);
      assert.ok(!lost, `${name} verifies with our seat losing: ${JSON.stringify(report.result)}`);
    }
  } finally {
    table.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("our seat is a witness for seat 1: a host that hides seat 1's move finds us holding it, relaying it, refusing its claim and accusing it", { timeout: 180_000 }, async (t) => {
  const why = missing();
  if (why) {
    t.skip(why);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "p2pdurak-mesh-"));
  const [table, link, summary, output] = startTable(dir, "--hide", "1");
  try {
    const [runner] = await playOurSeat(await link, "mesh witness");
    const inside = await summary;
    const log = output.join("\n");
    assert.equal(inside.timed_out, false, log);
    assert.ok((runner.mesh?.directFrom.get(1) ?? 0) > 0, "seat 1's moves reached us over the link");
    assert.ok(inside["0"].relayed?.includes(1), `we relayed seat 1's move to the host (a seat never relays its own): ${log}`);
    assert.ok(!runner.seconded.includes(1), "we signed no claim against seat 1");
    assert.equal(runner.overdue?.author, 1, `we accused the host of hiding seat 1's move: ${runner.errors.join("; ")}`);
    writeFileSync(join(dir, "ours.dlog"), runner.transcript());
    const ours = verify(join(dir, "ours.dlog"));
    assert.equal(ours.accusation?.reason, "censored-move");
    for (const name of ["host.dlog", "seat-1.dlog", "ours.dlog"]) {
      const report = verify(join(dir, name));
      const lost = report.valid && report.result !== null && (report.result.forfeit === 1 || report.result.durak === 1);
      assert.ok(!lost, `${name} verifies with seat 1 losing: ${JSON.stringify(report.result)}`);
    }
  } finally {
    table.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const [victim, who] of [[US, "us"], [1, "seat 1"]] as const) {
  test(`a host that sends ${who} no entry once ${victim === US ? "we are" : "it is"} due is undone by forwarding over the link: the game ends by the rules`, { timeout: 180_000 }, async (t) => {
    const why = missing();
    if (why) {
      t.skip(why);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), "p2pdurak-mesh-"));
    // (8 s clocks: the time forwarding takes on a loaded machine never runs a seat's move time out; longer ones
    // make this game longer, by about two of them)
    const [table, link, summary, output] = startTable(dir, "--starve", String(victim), "--move-timeout", "8");
    try {
      const [runner, ending] = await playOurSeat(await link, `mesh starved ${victim}`, 8);
      const inside = await summary;
      const log = output.join("\n");
      assert.equal(inside.timed_out, false, log);
      assert.equal(ending.reason, "game-over", runner.errors.join("; "));
      if (victim === US) assert.ok((runner.taken.get(1) ?? 0) > 0, "seat 1 forwarded us the entries the host kept from us");
      else assert.ok(runner.forwarded > 0 && (inside["1"].taken[String(US)] ?? 0) > 0, `we forwarded seat 1 its entries: ${log}`);
      assert.ok(runner.peer?.over && runner.accusation === null, runner.errors.join("; "));
      assert.ok(runner.mesh?.events.includes("seat 1 up"), `our links: ${runner.mesh?.events.join(", ")}`);
      assert.ok((runner.mesh?.directFrom.get(1) ?? 0) > 0, "seat 1's moves reached us over the link");
      assert.ok((inside["1"].direct_from[String(US)] ?? 0) > 0, `ours reached seat 1: ${log}`);
      assert.ok((runner.peer?.receiptLength(1) ?? 0) > 0, "seat 1's receipts reached us");
      const hostTranscript = new Uint8Array(readFileSync(join(dir, "host.dlog")));
      assert.ok(equal(runner.transcript(), hostTranscript), "our transcript is the host's, byte for byte");
      for (const name of ["host.dlog", "seat-1.dlog"]) {
        const report = verify(join(dir, name));
        assert.equal(report.valid, true, `${name}: ${JSON.stringify(report)}`);
        assert.equal(report.how, "result", `${name}: ${JSON.stringify(report)} ${log}`);
        assert.equal(report.result?.forfeit, null, name);
      }
    } finally {
      table.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
