/**
 * `node:fs` for the browser runner: the vector files are read with a synchronous request to the page's server
 * (allowed in a Worker), so the tests' `loadVectors` stays synchronous; a folder's listing is the JSON array of
 * names the server gives for the folder's URL.
 */

function get(url: string): string {
  const request = new XMLHttpRequest();
  request.open("GET", url, false);
  request.send();
  if (request.status !== 200) throw new Error(`GET ${url}: ${request.status}`);
  return request.responseText;
}

export function readFileSync(path: string, _encoding?: string): string {
  return get(path);
}

export function readdirSync(path: string): string[] {
  const names: unknown = JSON.parse(get(path));
  if (!Array.isArray(names) || !names.every((name) => typeof name === "string")) {
    throw new Error(`GET ${path}: not a JSON array of names`);
  }
  return names;
}
