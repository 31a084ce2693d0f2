// The browser seat's page, built for the Python package to ship (SPEC.md 9.15): src/page/main.ts -> main.js and
// src/page/worker.ts -> worker.js (esbuild, every npm package inlined, and libsecp256k1's WebAssembly module compiled
// by build-wasm.mjs with clang), and the page's other files of src/page/
// (index.html, page.css, ...) copied as they are, into ../p2pdurak/web/peer/. Deterministic: fixed options, no
// timestamps, no source maps, paths relative to ts/; so CI rebuilds it and fails unless the result is byte-identical
// to what ships (`--check`, as `python -m p2pdurak.conformance.regenerate --check` does for the vectors).
//
//   node scripts/build-peer.mjs           write ../p2pdurak/web/peer/ (what is there is replaced)
//   node scripts/build-peer.mjs --check   build into a temporary folder and compare; exit 1 and name each difference
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildWasm, wasmPlugin } from "./build-wasm.mjs";

const TS = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PAGE = join(TS, "src", "page");
const SHIPPED = resolve(TS, "..", "p2pdurak", "web", "peer");
const ENTRIES = ["main.ts", "worker.ts"];
const NOT_COPIED = /\.(ts|tsx|md)$/;

async function buildInto(out) {
  for (const entry of ENTRIES) {
    if (!existsSync(join(PAGE, entry))) {
      console.error(`build-peer: src/page/${entry} is missing (the page's entry points are main.ts and worker.ts)`);
      process.exit(1);
    }
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await bundle(out, buildWasm());
  for (const name of readdirSync(PAGE)) {
    if (!NOT_COPIED.test(name) && statSync(join(PAGE, name)).isFile()) copyFileSync(join(PAGE, name), join(out, name));
  }
}

async function bundle(out, wasmFile) {
  await build({
    absWorkingDir: TS,
    entryPoints: ENTRIES.map((entry) => `src/page/${entry}`),
    outdir: out,
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    sourcemap: false,
    charset: "utf8",
    legalComments: "eof", // the licences of the inlined packages stay with their code
    logLevel: "warning",
    plugins: [wasmPlugin(wasmFile)],
    loader: { ".wasm": "binary" }, // libsecp256k1 in WebAssembly, inlined in worker.js (build-wasm.mjs)
  });
}

function files(root, folder = root) {
  const found = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...files(root, path));
    else found.push(relative(root, path));
  }
  return found.sort();
}

function digest(root) {
  // the host shows the same (p2pdurak/web/hostweb.py bundle_digest): SHA-256 of the sha256sum listing
  const listing = files(root)
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .map((path) => `${createHash("sha256").update(readFileSync(join(root, path))).digest("hex")}  ${path}\n`)
    .join("");
  return createHash("sha256").update(listing).digest("hex");
}

if (process.argv.includes("--check") && !existsSync(PAGE) && !existsSync(SHIPPED)) {
  console.log("build-peer --check: no page source and no page shipped (nothing to compare)");
} else if (process.argv.includes("--check")) {
  const out = mkdtempSync(join(tmpdir(), "p2pdurak-peer-"));
  try {
    await buildInto(out);
    const built = files(out);
    const shipped = existsSync(SHIPPED) ? files(SHIPPED).filter((p) => !p.endsWith(".py") && !p.includes("__pycache__")) : [];
    const differences = [
      ...built.filter((p) => !shipped.includes(p)).map((p) => `missing from p2pdurak/web/peer: ${p}`),
      ...shipped.filter((p) => !built.includes(p)).map((p) => `not built from the source: p2pdurak/web/peer/${p}`),
      ...built.filter((p) => shipped.includes(p) && !readFileSync(join(out, p)).equals(readFileSync(join(SHIPPED, p))))
        .map((p) => `differs from its build: p2pdurak/web/peer/${p}`),
    ];
    if (differences.length) {
      for (const line of differences) console.error(line);
      console.error("build-peer --check: the shipped page is not what the source builds (run npm run build:peer)");
      process.exit(1);
    }
    console.log(`build-peer --check: p2pdurak/web/peer is the build of src/page (SHA-256 ${digest(out)})`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
} else {
  await buildInto(SHIPPED);
  console.log(`build-peer: wrote p2pdurak/web/peer (${files(SHIPPED).length} files, SHA-256 ${digest(SHIPPED)})`);
}
