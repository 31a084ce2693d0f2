// Compiles libsecp256k1 (the copy in the npm package secp256k1, a devDependency pinned by package-lock.json, used
// as it is) and our shim wasm/secp256k1_shim.c to WebAssembly with clang and wasm-ld (Debian's clang and lld), into
// build/secp256k1.wasm. Deterministic: the same compiler gives the same bytes, so CI's rebuild of the page
// (build-peer.mjs --check) compares byte for byte. The page, the tests and the bench import the bytes as
// "p2pdurak:secp256k1.wasm" through `wasmPlugin` (esbuild's binary loader: inlined as base64).
//
//   node scripts/build-wasm.mjs    write build/secp256k1.wasm and print its size and SHA-256
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const TS = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const LIBRARY = join("node_modules", "secp256k1", "src", "secp256k1");
export const WASM_FILE = join(TS, "build", "secp256k1.wasm");
export const WASM_IMPORT = "p2pdurak:secp256k1.wasm";

/** Compile the module into `out` (default build/secp256k1.wasm), through a file of this process's own renamed into
 * place, so builds running side by side never read a half-written module; exit with a plain message when a tool is
 * missing. */
export function buildWasm(out = WASM_FILE) {
  if (!existsSync(join(TS, LIBRARY, "src", "ecmult_impl.h"))) {
    console.error(`build-wasm: ${LIBRARY} is missing: run npm ci in ts/ (the secp256k1 package ships the C source)`);
    process.exit(1);
  }
  mkdirSync(dirname(out), { recursive: true });
  const args = [
    "--target=wasm32",
    "-nostdlib",
    "-ffreestanding",
    "-O2",
    "-Wall",
    "-Wno-unused-function",
    "-Iwasm/libc",
    `-I${LIBRARY}`,
    `-I${join(LIBRARY, "src")}`,
    "-fuse-ld=lld",
    "-Wl,--no-entry",
    "-Wl,--strip-all",
    "-Wl,--gc-sections",
    "-o",
    `${out}.${process.pid}.tmp`,
    "wasm/secp256k1_shim.c",
  ];
  const run = spawnSync("clang", args, { cwd: TS, encoding: "utf8" });
  if (run.error !== undefined || run.status !== 0) {
    console.error(run.error !== undefined ? `build-wasm: cannot run clang (${run.error.message})` : run.stderr);
    console.error("build-wasm: needs clang and lld (Debian: apt-get install clang lld) to build secp256k1.wasm");
    rmSync(`${out}.${process.pid}.tmp`, { force: true });
    process.exit(1);
  }
  renameSync(`${out}.${process.pid}.tmp`, out);
  return out;
}

/** esbuild: resolve "p2pdurak:secp256k1.wasm" to the module built by `buildWasm` (into `file`). */
export function wasmPlugin(file = WASM_FILE) {
  return {
    name: "secp256k1-wasm",
    setup(build) {
      build.onResolve({ filter: /^p2pdurak:secp256k1\.wasm$/ }, () => ({ path: file }));
    },
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bytes = readFileSync(buildWasm());
  const digest = createHash("sha256").update(bytes).digest("hex");
  console.log(`build-wasm: wrote build/secp256k1.wasm (${bytes.length} bytes, SHA-256 ${digest})`);
}
