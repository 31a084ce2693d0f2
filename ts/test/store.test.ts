/** The seat's records (src/seat/store.ts): which saved game an invite names, and the records as a seat file. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { equal } from "../src/bytes";
import { KIND_ENTRY, KIND_GENESIS, parseRecords } from "../src/log/dlog";
import { KIND_META, KIND_MOVE, KIND_SECRETS, MemoryFiles, loadSeat, metaRecord, savedGame, seatFileBytes } from "../src/seat/store";

test("an invite finds its own game's records, not only the latest game's; a short invite takes the latest", () => {
  const files = new MemoryFiles();
  files.open("aa", 1).append(KIND_GENESIS, Uint8Array.of(1));
  files.open("bb", 2).append(KIND_GENESIS, Uint8Array.of(2));
  files.open("cc", 0); // opened, nothing kept: not a saved game
  assert.deepEqual(savedGame(files, "aa"), { gameId: "aa", seat: 1 });
  assert.deepEqual(savedGame(files, "bb"), { gameId: "bb", seat: 2 });
  assert.equal(savedGame(files, "cc"), null);
  assert.equal(savedGame(files, "dd"), null);
  assert.deepEqual(savedGame(files, null), { gameId: "bb", seat: 2 });
});

test("the records read back by kind, and as a Python seat file's records in order", () => {
  const log = new MemoryFiles().open("aa", 1);
  log.append(KIND_META, metaRecord({ seat: 1, name: "Tess", role: "join" }));
  log.append(KIND_GENESIS, Uint8Array.of(7));
  log.append(KIND_SECRETS, Uint8Array.of(8));
  log.append(KIND_MOVE, Uint8Array.of(9));
  log.append(KIND_ENTRY, Uint8Array.of(10));
  const saved = loadSeat(log.records);
  assert.deepEqual(saved.meta, { name: "Tess", role: "join", seat: 1 });
  assert.ok(saved.genesis !== null && equal(saved.genesis, Uint8Array.of(7)));
  assert.deepEqual([saved.entries.length, saved.moves.length, saved.accusation], [1, 1, null]);
  const [records, end] = parseRecords(seatFileBytes(log.records));
  assert.deepEqual(records.map((r) => r.kind), [KIND_META, KIND_GENESIS, KIND_SECRETS, KIND_MOVE, KIND_ENTRY]);
  assert.equal(end, seatFileBytes(log.records).length);
  assert.equal(new TextDecoder().decode(records[0]?.payload), '{"name":"Tess","role":"join","seat":1}');
});
