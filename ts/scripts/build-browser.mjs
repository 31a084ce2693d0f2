// The browser builds of the tests and the bench (not shipped), classic Worker scripts in build/browser/: each
// test/<name>.test.ts with test/browser/run-tests.ts -> test-<name>.js (one bundle per file, as node runs one process
// per file; seat.test.ts and mesh.test.ts are left out: they start a Python host, which a page cannot), and
// test/browser/*.worker.ts -> <name>.worker.js (esbuild, every npm package inlined, as the page's own build does),
// with node:test, node:assert/strict, node:fs and node:url replaced by the shims of test/browser/shims/. import.meta.url is the
// Worker's own URL, so the tests find ../protocol/vectors/ where the server puts it (/protocol/vectors/ beside
// /ts/build/browser/). Used by tests/web/test_vectors_browser.py and `p2pdurak bench browser`.
import { readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildWasm, wasmPlugin } from "./build-wasm.mjs";

const TS = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BROWSER = join(TS, "test", "browser");
// --out DIR: build there instead (each pytest that runs the bundles builds its own, so tests in parallel never see
// each other's half-written files)
const at = process.argv.indexOf("--out");
const OUT = at >= 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : join(TS, "build", "browser");
const SHIMS = { "node:test": "test.ts", "node:assert/strict": "assert.ts", "node:fs": "fs.ts", "node:url": "url.ts" };

const shims = {
  name: "node-shims",
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      const shim = SHIMS[args.path];
      if (shim === undefined) return { errors: [{ text: `${args.path} has no browser shim (test/browser/shims)` }] };
      return { path: join(BROWSER, "shims", shim) };
    });
  },
};

// test files that need more of node than the shims give (they start a Python host)
const LEFT_OUT = new Set(["seat.test.ts", "mesh.test.ts"]);
const OPTIONS = {
  absWorkingDir: TS,
  bundle: true,
  platform: "browser",
  format: "iife",
  target: "es2022",
  define: { "import.meta.url": "self.location.href" },
  plugins: [shims, wasmPlugin(join(OUT, "secp256k1.wasm"))],
  loader: { ".wasm": "binary" },
  sourcemap: false,
  logLevel: "warning",
};

rmSync(OUT, { recursive: true, force: true });
buildWasm(join(OUT, "secp256k1.wasm")); // (in OUT: builds side by side each compile their own)
for (const name of readdirSync(join(TS, "test")).filter((n) => n.endsWith(".test.ts") && !LEFT_OUT.has(n))) {
  const stem = name.slice(0, -".test.ts".length);
  await build({
    ...OPTIONS,
    stdin: {
      contents: `import { serveTests } from "./run-tests";\nimport "../${stem}.test";\nserveTests();\n`,
      resolveDir: BROWSER,
      sourcefile: `test-${stem}.ts`,
      loader: "ts",
    },
    outfile: join(OUT, `test-${stem}.js`),
  });
}
const workers = readdirSync(BROWSER).filter((name) => name.endsWith(".worker.ts"));
if (workers.length > 0) {
  await build({ ...OPTIONS, entryPoints: workers.map((n) => `test/browser/${n}`), outdir: OUT, entryNames: "[name]" });
}
console.log(OUT);
