/** The TypeScript seat at a real Python host: `python -m p2pdurak host` with a computer player on 127.0.0.1, our
 * seat over TCP (u32be frames) with the easy bot, to the end of the game. Its transcript must be the host's, byte
 * for byte, and `p2pdurak verify` must call it valid. Needs a Python that imports p2pdurak (P2PDURAK_PYTHON, else
 * `python`: the venv of .ci/run); skipped, saying so, without one. */

import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type AddressInfo, type Server, createConnection, createServer } from "node:net";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { equal } from "../src/bytes";
import { FrameDecoder, encodeFrame } from "../src/net/framing";
import { Entry as NetEntry, decodeNet } from "../src/net/messages";
import { tableView } from "../src/page/view";
import { encode } from "../src/wire";
import { Identity } from "../src/crypto/identity";
import { seededRng } from "../src/randomness";
import { easyChooser } from "../src/seat/bot";
import { runSeat } from "../src/seat/driver";
import { parseInvite } from "../src/seat/invite";
import { HostLink } from "../src/seat/link";
import { SeatRunner, quietListener } from "../src/seat/runner";
import { prepareSeat } from "../src/seat/join";
import { KIND_MOVE, KIND_SECRETS, MemoryFiles, type SeatFiles, loadSeat } from "../src/seat/store";
import { LocalError } from "../src/errors";
import { TcpTransport } from "../src/seat/tcp";
import { toHex } from "../src/bytes";
import { uncheckedData } from "../src/log/moves";

const REPO = resolve(process.cwd(), "..");
const PYTHON = process.env.P2PDURAK_PYTHON ?? "python";

function pythonMissing(): string | false {
  const probe = spawnSync(PYTHON, ["-c", "import p2pdurak.commands.host"], { cwd: REPO, encoding: "utf8" });
  return probe.status === 0 ? false : `no Python that imports p2pdurak (${PYTHON}; set P2PDURAK_PYTHON)`;
}

function startHost(dir: string, seed: number): [ChildProcess, Promise<string>, string[]] {
  const host = spawn(
    PYTHON,
    ["-m", "p2pdurak", "host", "--no-announce", "--no-upnp", "--no-lobby-input", "--seats", "2", "--deck", "24",
      "--bind", "127.0.0.1", "--bot", "random", "--seed", String(seed), "--no-fsync", "--quiet",
      "--profile", join(dir, "host"), "--out", join(dir, "host.dlog")],
    { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] },
  );
  const output: string[] = [];
  host.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const link = new Promise<string>((found, failed) => {
    const lines = createInterface({ input: host.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      output.push(line);
      if (line.includes("invite link:")) found(line.trim().split(/\s+/).pop() as string);
    });
    host.once("exit", (code) => failed(new Error(`host exited ${code}: ${output.join("\n")}`)));
  });
  return [host, link, output];
}

function exited(proc: ChildProcess): Promise<number | null> {
  return proc.exitCode !== null ? Promise.resolve(proc.exitCode) : new Promise((done) => proc.once("exit", (code) => done(code)));
}

test("a TypeScript seat plays a whole game at a Python host over TCP", { timeout: 120_000 }, async (t) => {
  const missing = pythonMissing();
  if (missing) {
    t.skip(missing);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "p2pdurak-seat-"));
  const [host, linkText, output] = startHost(dir, 3);
  try {
    const invite = parseInvite(await linkText);
    const identity = Identity.generate(seededRng("ts-seat identity"));
    const files = new MemoryFiles();
    const runner = new SeatRunner(identity, files, { player: easyChooser(seededRng("ts-seat bot")), rng: seededRng("ts-seat deck") });
    const link = new HostLink(identity, "Tess", invite, { rng: seededRng("ts-seat hello") });
    const ending = await runSeat(link, runner, new TcpTransport(invite.host, invite.port));
    assert.deepEqual(ending, { kind: "bye", reason: "game-over", seat: null });
    assert.equal(await exited(host), 0, output.join("\n"));
    const hostTranscript = new Uint8Array(readFileSync(join(dir, "host.dlog")));
    assert.ok(equal(runner.transcript(), hostTranscript), "our transcript is the host's, byte for byte");
    assert.ok(runner.peer?.over && runner.errors.length === 0, runner.errors.join("; "));
    const checked = spawnSync(PYTHON, ["-m", "p2pdurak", "verify", "--json", join(dir, "host.dlog")], { cwd: REPO, encoding: "utf8" });
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
    const report = JSON.parse(checked.stdout) as { valid: boolean; how: string };
    assert.equal(report.valid, true);
    assert.equal(report.how, "result");
    // every move we sent was kept before it went out, and the records hold the whole game
    const saved = loadSeat(files.open(toHex(invite.gameId as Uint8Array), runner.seat as number).records);
    assert.equal(saved.entries.length, runner.entries.length);
    assert.ok(saved.moves.length > 0 && saved.secrets !== null);
    assert.ok(files.open(toHex(invite.gameId as Uint8Array), 1).records.some((r) => r.kind === KIND_MOVE));
  } finally {
    host.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a TypeScript seat stopped mid-game (a closed page) resumes from its records and plays to the end", { timeout: 120_000 }, async (t) => {
  const missing = pythonMissing();
  if (missing) {
    t.skip(missing);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "p2pdurak-seat-"));
  const [host, linkText, output] = startHost(dir, 4);
  try {
    const text = await linkText;
    const identity = Identity.generate(seededRng("ts-seat resumed identity"));
    const files = new MemoryFiles();
    const first = prepareSeat(identity, "Tess", text, files, { player: easyChooser(seededRng("bot 1")) });
    assert.equal(first.resumed, false);
    const stop = new AbortController();
    let stoppedAt = -1;
    first.runner.listener = {
      ...quietListener,
      entryApplied: (index) => {
        if (index >= 14 && stoppedAt < 0) {
          stoppedAt = index; // (the seat may still sign and keep its answer to this entry: it never leaves)
          stop.abort();
        }
      },
    };
    const firstEnding = await runSeat(first.link, first.runner, new TcpTransport(first.invite.host, first.invite.port), { signal: stop.signal });
    assert.equal(firstEnding.reason, "stopped");
    const again = prepareSeat(identity, "Tess", text, files, { player: easyChooser(seededRng("bot 2")) });
    assert.equal(again.resumed, true);
    assert.equal(again.runner.entries.length, stoppedAt + 1);
    const ending = await runSeat(again.link, again.runner, new TcpTransport(again.invite.host, again.invite.port));
    assert.equal(ending.reason, "game-over");
    assert.equal(await exited(host), 0, output.join("\n"));
    const hostTranscript = new Uint8Array(readFileSync(join(dir, "host.dlog")));
    assert.ok(equal(again.runner.transcript(), hostTranscript), "the resumed seat's transcript is the host's");
    // no counter was signed twice: every move we kept has its own counter
    const records = files.open(toHex(again.invite.gameId as Uint8Array), again.runner.seat as number).records;
    const counters = loadSeat(records).moves.map((mv) => uncheckedData(mv)?.counter);
    assert.equal(new Set(counters).size, counters.length);
    const checked = spawnSync(PYTHON, ["-m", "p2pdurak", "verify", "--json", join(dir, "host.dlog")], { cwd: REPO, encoding: "utf8" });
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  } finally {
    host.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A man in the middle between the seat and the host that changes one byte of entry `index` on its way to the seat
 * (the last byte of the host's signature), or with `cut` drops the connection once as that entry comes. Returns the
 * proxy's port. */
function tamperingProxy(hostPort: number, index: number, cut = false): Promise<[Server, number]> {
  let cutOnce = cut;
  const server = createServer((client) => {
    const upstream = createConnection({ host: "127.0.0.1", port: hostPort });
    const frames = new FrameDecoder();
    upstream.on("data", (chunk: Buffer) => {
      frames.feed(new Uint8Array(chunk));
      for (let payload = frames.nextFrame(); payload !== null; payload = frames.nextFrame()) {
        const msg = decodeNet(payload);
        if (cutOnce && msg.type === "net.Entry" && msg.index === BigInt(index)) {
          cutOnce = false; // the line goes dead with entry `index` on its way, once
          client.destroy();
          upstream.destroy();
          return;
        }
        if (!cut && msg.type === "net.Entry" && msg.index === BigInt(index)) {
          const entry = msg.entry.slice();
          entry[entry.length - 1] = (entry[entry.length - 1] as number) ^ 1;
          payload = encode(NetEntry.make({ index: msg.index, entry }));
        }
        client.write(encodeFrame(payload));
      }
    });
    client.on("data", (chunk) => upstream.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  return new Promise((listening) => server.listen(0, "127.0.0.1", () => listening([server, (server.address() as AddressInfo).port])));
}

test("an entry changed in flight is refused by the TypeScript seat, which says why and leaves", { timeout: 120_000 }, async (t) => {
  const missing = pythonMissing();
  if (missing) {
    t.skip(missing);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "p2pdurak-seat-"));
  const [host, linkText] = startHost(dir, 5);
  let proxy: Server | null = null;
  try {
    const invite = parseInvite(await linkText);
    const [server, port] = await tamperingProxy(invite.port, 9);
    proxy = server;
    const identity = Identity.generate(seededRng("ts-seat tampered identity"));
    const runner = new SeatRunner(identity, new MemoryFiles(), { player: easyChooser(seededRng("bot 3")) });
    const link = new HostLink(identity, "Tess", invite);
    const ending = await runSeat(link, runner, new TcpTransport("127.0.0.1", port));
    assert.equal(ending.reason, "leaving");
    const fault = runner.peer?.faulted;
    assert.ok(fault !== null && fault !== undefined);
    assert.equal(fault.entry, 9);
    assert.equal(fault.seat, 0); // the host's signature: the host is at fault (or whoever sent these bytes)
    assert.equal(runner.entries.length, 10); // kept as received: the evidence
    const said = tableView(runner)?.status ?? "";
    assert.match(said, /^Entry 9 from the host did not check out: the host's signature of an entry does not verify\./);
    assert.ok(said.endsWith(`(${fault.reason})`), said);
  } finally {
    proxy?.close();
    host.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a TypeScript seat whose connection drops mid-game reconnects by itself, catches up and plays to the end", { timeout: 120_000 }, async (t) => {
  const missing = pythonMissing();
  if (missing) {
    t.skip(missing);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "p2pdurak-seat-"));
  const [host, linkText, output] = startHost(dir, 9);
  let proxy: Server | null = null;
  try {
    const invite = parseInvite(await linkText);
    const [server, port] = await tamperingProxy(invite.port, 12, true);
    proxy = server;
    const identity = Identity.generate(seededRng("ts-seat cut identity"));
    const runner = new SeatRunner(identity, new MemoryFiles(), { player: easyChooser(seededRng("bot 4")) });
    const link = new HostLink(identity, "Tess", invite);
    const events: string[] = [];
    const ending = await runSeat(link, runner, new TcpTransport("127.0.0.1", port), { onEvent: (event) => events.push(event) });
    assert.equal(ending.reason, "game-over");
    assert.equal(link.connections, 2);
    assert.deepEqual(events.filter((e) => e !== "connected"), ["dropped"]);
    assert.equal(await exited(host), 0, output.join("\n"));
    assert.ok(equal(runner.transcript(), new Uint8Array(readFileSync(join(dir, "host.dlog")))));
    assert.ok(runner.peer?.over && runner.errors.length === 0, runner.errors.join("; "));
  } finally {
    proxy?.close();
    host.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a seat whose records cannot be kept stops there, in words, and sends nothing that depends on them", { timeout: 120_000 }, async (t) => {
  const missing = pythonMissing();
  if (missing) {
    t.skip(missing);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "p2pdurak-seat-"));
  const [host, linkText] = startHost(dir, 11);
  try {
    const invite = parseInvite(await linkText);
    const memory = new MemoryFiles();
    let full = false; // the disk (or the browser's quota) fills once the deck secrets are kept
    const files: SeatFiles = {
      latest: () => memory.latest(),
      seatOf: (gameId) => memory.seatOf(gameId),
      open(gameId, seat) {
        const log = memory.open(gameId, seat);
        return {
          records: log.records,
          append(kind, payload) {
            log.append(kind, payload);
            if (kind === KIND_SECRETS) full = true;
          },
          flush: () => (full ? Promise.reject(new Error("quota exceeded")) : log.flush()),
        };
      },
    };
    const identity = Identity.generate(seededRng("ts-seat full identity"));
    const runner = new SeatRunner(identity, files, { player: easyChooser(seededRng("bot 5")) });
    const sent: string[] = [];
    const transport = new TcpTransport(invite.host, invite.port);
    const watched = {
      where: transport.where,
      async connect() {
        const conn = await transport.connect();
        return { ...conn, receive: () => conn.receive(), close: () => conn.close(), send: (p: readonly Uint8Array[]) => {
          sent.push(...p.map((x) => decodeNet(x).type));
          return conn.send(p);
        } };
      },
    };
    await assert.rejects(runSeat(new HostLink(identity, "Tess", invite), runner, watched), (exc) => exc instanceof LocalError && exc.reason === "write-failed" && /quota exceeded/.test(exc.message));
    assert.ok(runner.peer !== null); // the genesis came, the secrets were made...
    assert.ok(!sent.includes("net.Move"), sent.join(" ")); // ...and the shuffle that depends on them never left
  } finally {
    host.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
