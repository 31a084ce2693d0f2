// `npm test`'s runner: node's test runner over build/test/, with the WebSocket that Node 20 keeps behind a flag
// (Node 22 has it on by default): test/mesh.test.ts dials a Python seat's mesh listener with it, as a page does.
import { spawnSync } from "node:child_process";

const flags = typeof WebSocket === "undefined" ? ["--experimental-websocket"] : [];
const run = spawnSync(process.execPath, [...flags, "--test", "--test-reporter=spec", ...process.argv.slice(2), "build/test/"], {
  stdio: "inherit",
});
process.exit(run.status ?? 1);
