/** The messages between the page (main.ts) and its Web Worker (worker.ts), where the seat runs. */

import type { TableView } from "./view";

export type ToWorker =
  | { readonly type: "open"; readonly invite: string; readonly url: string }
  | { readonly type: "join"; readonly name: string }
  | { readonly type: "act"; readonly text: string }
  | { readonly type: "leave" };

export type FromWorker =
  | {
      readonly type: "profile";
      readonly name: string;
      readonly resumable: boolean;
      readonly persistent: boolean;
      /** signatures go through WebCrypto's Ed25519 first (a secure context), else noble's arithmetic checks them all */
      readonly webcrypto: boolean;
      /** the group operations of checking: "libsecp256k1 wasm", or "noble" where WebAssembly was refused */
      readonly group: string;
    }
  | { readonly type: "progress"; readonly text: string }
  | { readonly type: "view"; readonly view: TableView }
  | { readonly type: "refused"; readonly text: string }
  | { readonly type: "ended"; readonly text: string; readonly transcript: string | null }
  | { readonly type: "error"; readonly text: string }
  | { readonly type: "digest"; readonly digest: string | null };
