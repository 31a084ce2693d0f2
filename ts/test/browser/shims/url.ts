/** `node:url` for the browser runner: a path is the URL itself (the fs shim reads over http). */

export function fileURLToPath(url: URL | string): string {
  return String(url);
}
