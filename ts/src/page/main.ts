/**
 * The browser seat's page: reads the invite from the link's fragment (SPEC.md R-NET-103), asks for a name, starts
 * the seat in a Web Worker (worker.js) that reaches the host at ws://<this page's host>/seat (a page served
 * elsewhere: at the /seat of the browser link in its fragment), and draws what the worker posts: the table, the hand
 * and the moves as buttons, in plain words. Nothing here checks or signs: the worker does it all.
 */

import type { FromWorker, ToWorker } from "./protocol";
import type { TableView } from "./view";

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** The invite in the fragment, as written or percent-encoded once. */
export function inviteFromHash(hash: string): string {
  const text = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!text.includes("://") && text.includes("%")) {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The invite and the WebSocket of the seat (SPEC.md R-NET-103): the fragment's invite and this page's own /seat;
 * or, for a page served elsewhere (`p2pdurak web-peer`), a whole browser link in the fragment, whose invite it
 * carries and whose /seat it names. An http(s) fragment that is no URL gives no invite. */
export function seatTarget(hash: string, pageHost: string, secure: boolean): { invite: string; url: string } {
  const text = inviteFromHash(hash);
  if (!/^https?:\/\//i.test(text)) return { invite: text, url: `${secure ? "wss" : "ws"}://${pageHost}/seat` };
  let link: URL;
  try {
    link = new URL(text);
  } catch {
    return { invite: "", url: "" };
  }
  return { invite: inviteFromHash(link.hash), url: `${link.protocol === "https:" ? "wss" : "ws"}://${link.host}/seat` };
}

/** A card's chip: hearts and diamonds in red. */
function cardChip(text: string, cls = "card"): HTMLElement {
  return el("span", text, /[♥♦]/.test(text) ? `${cls} red` : cls);
}

function el(tag: string, text = "", cls = ""): HTMLElement {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function say(text: string, cls = ""): void {
  const log = $("log");
  if (log.firstElementChild?.textContent === text) return; // (said once)
  const line = el("li", text, cls);
  log.prepend(line);
  while (log.children.length > 30) log.lastChild?.remove();
}

function draw(view: TableView, send: (msg: ToWorker) => void): void {
  $("join").hidden = true;
  $("game").hidden = false;
  $("game").dataset.cpu = view.cpu.toFixed(3); // (for the benchmark and the tests: the seat's thread's seconds)
  if (view.setupCpu !== null) $("game").dataset.setupCpu = view.setupCpu.toFixed(3);
  $("code").textContent = view.tableCode ? `Table code ${view.tableCode}` : "";
  $("phase").textContent = view.phase;
  $("status").textContent = view.status;
  $("trump").textContent = view.trump === null ? "" : `Trump ${view.trump} · ${view.stock} in the deck`;
  const seats = $("seats");
  seats.replaceChildren(
    ...view.seats.map((s) => {
      const words = s.out ? "out" : `${s.cards} card${s.cards === 1 ? "" : "s"}`;
      return el("li", `${s.me ? "You" : s.name}: ${words}`, `${s.turn ? "turn" : ""} ${s.me ? "me" : ""}`.trim());
    }),
  );
  const table = $("table");
  table.replaceChildren(
    ...view.table.map((p) => {
      const pair = el("div", "", "pair");
      pair.append(cardChip(p.attack));
      if (p.beat !== null) pair.append(cardChip(p.beat, "card beat"));
      return pair;
    }),
  );
  if (view.table.length === 0) table.append(el("p", "The table is empty", "quiet"));
  $("hand").replaceChildren(...view.hand.map((c) => cardChip(c)));
  const actions = $("actions");
  actions.replaceChildren(
    ...view.actions.map((a) => {
      const button = el("button", a.label) as HTMLButtonElement;
      button.dataset.action = a.text;
      button.onclick = () => {
        for (const b of actions.querySelectorAll("button")) (b as HTMLButtonElement).disabled = true;
        send({ type: "act", text: a.text });
      };
      return button;
    }),
  );
  ($("leave") as HTMLButtonElement).hidden = view.over;
}

function start(): void {
  const { invite, url } = seatTarget(location.hash, location.host, location.protocol === "https:");
  const worker = new Worker("worker.js", { type: "module" });
  const send = (msg: ToWorker): void => worker.postMessage(msg);
  if (navigator.storage?.persist) void navigator.storage.persist(); // (keys and records should outlive a cleanup)
  const joinNow = (name: string): void => {
    ($("go") as HTMLButtonElement).disabled = true;
    $("note").textContent = "Joining…";
    send({ type: "join", name });
  };
  if (!invite) {
    $("note").textContent = "This page needs the host's link: open the link (or scan the QR code) the host shows.";
    ($("go") as HTMLButtonElement).disabled = true;
  }
  $("form").onsubmit = (ev) => {
    ev.preventDefault();
    const name = ($("name") as HTMLInputElement).value.trim();
    if (!name) {
      $("note").textContent = "Type your name first.";
      return;
    }
    joinNow(name);
  };
  $("leave").onclick = () => {
    if (confirm("Leave the game? Leaving counts as losing.")) send({ type: "leave" });
  };
  send({ type: "open", invite, url });
  worker.onerror = (ev) => {
    say(`The seat stopped on an error of this page: ${ev.message}`, "warn");
  };
  worker.onmessage = (ev: MessageEvent<FromWorker>) => {
    const msg = ev.data;
    switch (msg.type) {
      case "profile":
        $("game").dataset.ed25519 = msg.webcrypto ? "webcrypto" : "noble"; // (for the tests: which check ran)
        $("game").dataset.group = msg.group; // (for the tests and the benchmark: which group checks)
        if (!($("name") as HTMLInputElement).value) ($("name") as HTMLInputElement).value = msg.name;
        if (!msg.persistent) say("This browser keeps nothing: a reload would lose the game", "warn");
        if (msg.resumable) joinNow(msg.name); // a reload carries on at once
        break;
      case "progress":
        say(msg.text);
        if ($("game").hidden) $("note").textContent = msg.text;
        break;
      case "view":
        draw(msg.view, send);
        break;
      case "refused":
        say(msg.text, "warn");
        break;
      case "ended": {
        say(msg.text);
        document.body.dataset.ended = msg.text; // (for a program driving the page: tests/web/page_peer.py)
        $("status").textContent = `${$("status").textContent ?? ""} · ${msg.text}`;
        ($("leave") as HTMLButtonElement).hidden = true;
        if (msg.transcript !== null) {
          const hex = msg.transcript;
          const bytes = Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));
          const save = $("save") as HTMLAnchorElement;
          save.href = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
          save.hidden = false;
          save.dataset.transcript = hex;
        }
        break;
      }
      case "digest":
        $("digest").textContent = msg.digest === null ? "" : `This page's SHA-256 (compare it with the host's lobby): ${msg.digest}`;
        break;
      case "error":
        say(msg.text, "warn");
        document.body.dataset.error = msg.text;
        $("note").textContent = msg.text;
        ($("go") as HTMLButtonElement).disabled = false;
        break;
    }
  };
}

if (typeof document !== "undefined") start();
