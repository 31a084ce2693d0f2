/**
 * libsecp256k1 in WebAssembly (ts/wasm/secp256k1_shim.c, built by scripts/build-wasm.mjs) for operations on PUBLIC
 * values only: strict point decompression and multi-scalar multiplication, variable time. It makes a seat's share of
 * the setup about twice as fast as noble's bigint arithmetic (issue 26); secrets never reach it. `group.ts` uses it
 * once `useWasmGroup` installs it, and noble where WebAssembly is missing or refused (a page's CSP).
 */

/** A point as the module reads it: x then y, 32 bytes each, big-endian (affine, on the curve). */
export type Affine = Uint8Array;

interface Exports {
  readonly memory: WebAssembly.Memory;
  p2p_buffer(): number;
  p2p_max_terms(): number;
  p2p_init(): void;
  p2p_decompress(): number;
  p2p_lincomb(n: number, withG: number): number;
}

const MASK64 = (1n << 64n) - 1n;

export class WasmGroup {
  /** The most terms one `lincomb` takes. */
  readonly maxTerms: number;
  private readonly io: number;

  private constructor(private readonly exports: Exports) {
    exports.p2p_init();
    this.io = exports.p2p_buffer();
    this.maxTerms = exports.p2p_max_terms();
  }

  /** The module from its bytes, compiled synchronously (a Worker and Node allow any size); null where this
   * JavaScript has no WebAssembly or refuses to compile it (a CSP without 'wasm-unsafe-eval'). */
  static load(bytes: Uint8Array): WasmGroup | null {
    if (typeof WebAssembly === "undefined") return null;
    try {
      const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>), {});
      return new WasmGroup(instance.exports as unknown as Exports);
    } catch {
      return null;
    }
  }

  /** The memory's view now (a grown memory replaces its buffer). */
  private view(): DataView {
    return new DataView(this.exports.memory.buffer);
  }

  /** x, y of a 33-byte compressed point; null unless the prefix is 02/03, x < p and the point is on the curve. */
  decompress(encoded: Uint8Array): Affine | null {
    const memory = new Uint8Array(this.exports.memory.buffer);
    memory.set(encoded.subarray(0, 33), this.io);
    if (this.exports.p2p_decompress() !== 1) return null;
    return memory.slice(this.io, this.io + 64);
  }

  /** sum scalars[i]*points[i] + g*G (scalars already reduced mod N, g = 0n for no G term): x, y of the sum, or
   * null for the identity. At most `maxTerms` points. */
  lincomb(points: readonly Affine[], scalars: readonly bigint[], g: bigint): Affine | null {
    const n = points.length;
    if (n > this.maxTerms || scalars.length !== n) throw new Error("WasmGroup.lincomb: too many terms");
    const memory = new Uint8Array(this.exports.memory.buffer);
    const view = this.view();
    points.forEach((p, i) => memory.set(p, this.io + 64 * i));
    const at = this.io + 64 * n;
    scalars.forEach((k, i) => putScalar(view, at + 32 * i, k));
    if (g !== 0n) putScalar(view, at + 32 * n, g);
    const result = this.exports.p2p_lincomb(n, g !== 0n ? 1 : 0);
    if (result === 0) return null;
    if (result !== 1) throw new Error("WasmGroup.lincomb: the module refused its input");
    return memory.slice(this.io, this.io + 64);
  }
}

function putScalar(view: DataView, at: number, k: bigint): void {
  for (let i = 0; i < 4; i++) view.setBigUint64(at + 24 - 8 * i, (k >> BigInt(64 * i)) & MASK64);
}
