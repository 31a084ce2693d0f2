// Bundles every test/*.test.ts (with the src it imports) into build/test/*.test.js for `node --test`,
// scripts/bench.ts into build/scripts/bench.js for `npm run bench`, and scripts/seat.ts into build/scripts/seat.js
// (the seat in node, for `p2pdurak conformance --peer`).
// libsecp256k1's WebAssembly module is built first (build-wasm.mjs) and inlined where a test imports it.
// The npm packages stay external: node loads them from node_modules as the browser bundle will inline them.
import { readdirSync } from "node:fs";
import { build } from "esbuild";
import { buildWasm, wasmPlugin } from "./build-wasm.mjs";

buildWasm();
const entryPoints = readdirSync("test")
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => `test/${name}`);
await build({
  entryPoints: [...entryPoints, "scripts/bench.ts", "scripts/seat.ts"],
  outdir: "build",
  outbase: ".",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "inline",
  logLevel: "warning",
  plugins: [wasmPlugin()],
  loader: { ".wasm": "binary" },
});
