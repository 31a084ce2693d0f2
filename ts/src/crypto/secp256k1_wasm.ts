/*! @license libsecp256k1, compiled to WebAssembly and inlined below (ts/wasm/secp256k1_shim.c):
Copyright (c) 2013 Pieter Wuille

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
THE SOFTWARE.
*/

/**
 * The WebAssembly module's bytes (built by scripts/build-wasm.mjs, inlined by the builds) and the one call that
 * installs it for group.ts. Imported by the page's worker, the tests and the benches; the core itself never imports
 * it, so the core runs on noble alone until someone installs the module.
 */

import bytes from "p2pdurak:secp256k1.wasm";
import { useWasmGroup } from "./group";
import { WasmGroup } from "./wasm_group";

let loaded: WasmGroup | null | undefined;

/** Compile the module once; null where WebAssembly is missing or refused. */
export function loadWasmGroup(): WasmGroup | null {
  if (loaded === undefined) loaded = WasmGroup.load(bytes);
  return loaded;
}

/** Use libsecp256k1 for public values where this JavaScript can; true if it does, false on noble alone. */
export function installWasmGroup(): boolean {
  const group = loadWasmGroup();
  useWasmGroup(group);
  return group !== null;
}
