import { readFileSync } from "node:fs";
import { fromHex } from "../src/bytes";
import { verifyTranscriptBytes } from "../src/peer/verify";
const doc = JSON.parse(readFileSync("../protocol/vectors/transcript-valid.json", "utf8"));
for (const c of doc.testGroups[0].tests) {
  const t0 = performance.now();
  const r = verifyTranscriptBytes(fromHex(c.input));
  console.log(c.name, r.valid, (performance.now() - t0).toFixed(0), "ms");
}
