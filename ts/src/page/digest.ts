/** The page's own digest (SPEC.md R-NET-104): SHA-256 of the `sha256sum` listing of its files, each fetched again
 * from where the page came from. A page changed by whoever served it can show any digest it likes: the figure is
 * for comparing with the host's lobby and a release, the way out is a page served from an origin one trusts. */

import { sha256 } from "@noble/hashes/sha2.js";
import { toHex } from "../bytes";

/** Every file of the built page (p2pdurak/web/peer/), in byte order (tests/web/test_browser_seat.py checks that the
 * page shows the digest the host shows). */
export const PAGE_FILES = ["index.html", "main.js", "page.css", "worker.js"] as const;

export function bundleDigest(files: ReadonlyMap<string, Uint8Array>): string {
  const names = [...files.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const listing = names.map((name) => `${toHex(sha256(files.get(name) as Uint8Array))}  ${name}\n`).join("");
  return toHex(sha256(new TextEncoder().encode(listing)));
}

/** Fetch the page's files next to `base` and digest them; null if one cannot be fetched. */
export async function pageDigest(base: string): Promise<string | null> {
  const files = new Map<string, Uint8Array>();
  for (const name of PAGE_FILES) {
    const answer = await fetch(new URL(name, base), { cache: "no-store" });
    if (!answer.ok) return null;
    files.set(name, new Uint8Array(await answer.arrayBuffer()));
  }
  return bundleDigest(files);
}
