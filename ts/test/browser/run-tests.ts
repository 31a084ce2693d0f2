/**
 * The Worker side of one test file in a browser: scripts/build-browser.mjs bundles each test/*.test.ts (the same
 * files `npm test` runs in node: every vector file of ../protocol/vectors, the in-memory table's byte-for-byte games,
 * the pending list) with node:test, node:assert, node:fs and node:url replaced by the shims beside this file, and
 * this runner, one bundle per file as node runs one process per file. When the page says "run", the file's tests
 * run and every result goes back as a tree. tests/web/test_vectors_browser.py loads them in Chromium and WebKit.
 */

import { runRegistered } from "./shims/test";

interface WorkerScope {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}

export function serveTests(): void {
  const scope = self as unknown as WorkerScope;
  scope.onmessage = (event: MessageEvent) => {
    if (event.data !== "run") return;
    const started = performance.now();
    void runRegistered((outcome) => scope.postMessage({ kind: "progress", name: outcome.name, status: outcome.status }))
      .then((outcomes) => scope.postMessage({ kind: "done", outcomes, ms: performance.now() - started }))
      .catch((error: unknown) => scope.postMessage({ kind: "error", detail: String(error) }));
  };
  scope.postMessage({ kind: "ready", userAgent: navigator.userAgent });
}
