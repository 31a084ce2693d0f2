/** The bytes of libsecp256k1 in WebAssembly (build/secp256k1.wasm), inlined by the builds' esbuild plugin
 * (scripts/build-wasm.mjs); imported only by the page's worker, the tests and the benches, never by the core. */
declare module "p2pdurak:secp256k1.wasm" {
  const bytes: Uint8Array;
  export default bytes;
}
