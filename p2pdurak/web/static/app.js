// The table page: a view of the seat's state as the Python process sends it over the WebSocket, and the player's
// clicks, drags and keys sent back. The page decides nothing: it offers what the state lists as legal and the
// process checks every message again.
import { cardBack, cardFace, durakPicture } from "./cards.js";

const root = document.getElementById("app");
let ws = null;
let state = null;
let selected = null; // a hand card chosen to beat with (then a table card is clicked)
let retry = 250;
let failures = 0; // reconnections that failed in a row
let gone = false; // the process is gone (or we left): nothing on the page works any more
let seen = new Set(); // cards already on screen (new ones are animated)
let pending = null; // {card, t0}: a click waiting for its card to show on the table
let holding = false; // the pointer is down or a card is being dragged: a redraw now would swallow the click
let held = false; // a state arrived meanwhile
window.__durak = { latencies: [], states: 0, connected: false };

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`); // (the session cookie, HttpOnly, goes with it)
  ws.onopen = () => { retry = 250; failures = 0; gone = false; window.__durak.connected = true; };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      state = message;
      window.__durak.states += 1;
      window.__durak.state = message; // for tests and for the curious: exactly what the process sent
      window.__durak.first = window.__durak.first || message; // (and the first: what the page met)
      if (holding) held = true; // a button is half pressed or a card dragged: redraw when it is let go
      else render();
    }
  };
  ws.onclose = () => {
    window.__durak.connected = false;
    root.classList.add("offline");
    failures += 1;
    if (state && (state.left || failures >= 3) && !gone) { gone = true; render(); } // say it, offer nothing
    if (state?.left) return; // we left: the process ends, nothing more will come
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 3000);
  };
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function act(action) {
  selected = null;
  if (["play", "beat", "transfer", "show"].includes(action.kind)) pending = { card: action.card, t0: performance.now() };
  const out = { type: "act", kind: action.kind };
  if ("card" in action) out.card = action.card;
  if ("attack" in action) out.attack = action.attack;
  send(out);
}

function actionsWith(card) {
  return (state?.actions || []).filter((a) => a.card === card && ["play", "beat"].includes(a.kind));
}

// ------------------------------------------------------------------------------------------------ rendering

function cardButton(card, { cls = "", attrs = "", fresh = false, disabled = false, label = "" }) {
  const anim = fresh ? " fresh" : "";
  return `<button class="card-btn ${cls}${anim}" ${attrs} ${disabled ? "aria-disabled=\"true\"" : ""}
    aria-label="${esc(label || card.label)}">${cardFace(card)}</button>`;
}

function placed(card) { // a table card, for the animations: which card, and who put it there
  return `data-card="${card.c}" data-where="table" data-by="${card.by ?? ""}"`;
}

function isFresh(card) {
  return !seen.has(card.c);
}

function renderPlayers(s) {
  return s.players.filter((p) => !p.me).map((p) => {
    const backs = Array.from({ length: Math.min(p.size, 12) }, () => cardBack("mini")).join("");
    const known = p.known.map((c) => cardFace(c, "mini")).join("");
    return `<section class="player${p.acting ? " acting" : ""}" data-seat="${p.seat}">
      <div class="player-name">${p.acting ? "&#9654; " : ""}${esc(p.name)}</div>
      <div class="fan">${backs}</div>
      <div class="player-meta">${esc(p.size_text)}${p.roles.length ? " · " + esc(p.roles.join(" · ")) : ""}</div>
      ${p.link ? `<div class="player-link">${esc(p.link)}</div>` : ""}
      ${known ? `<div class="known">${known}</div>` : ""}
    </section>`;
  }).join("");
}

function renderTable(s, v) {
  const beatable = selected === null ? new Set() :
    new Set(state.actions.filter((a) => a.kind === "beat" && a.card === selected).map((a) => a.attack));
  const pairs = v.table.map((pair) => {
    const target = beatable.has(pair.index);
    const attack = cardButton(pair.attack, {
      cls: "attack" + (target ? " target" : ""),
      attrs: `data-attack="${pair.index}" data-focus="a${pair.index}" ${target ? "" : "tabindex=\"-1\""} ${placed(pair.attack)}`,
      fresh: isFresh(pair.attack),
    });
    const beat = pair.beat ? `<div class="beat${isFresh(pair.beat) ? " fresh" : ""}" ${placed(pair.beat)}>${cardFace(pair.beat)}</div>` : "";
    return `<div class="pair" data-drop="${pair.index}">${attack}${beat}</div>`;
  }).join("");
  return `<div class="table-cards">${pairs || `<p class="empty">${esc(v.table_text)}</p>`}</div>
    ${v.table.length ? `<p class="table-note">${esc(v.table_text)}${v.taken ? " · Beru!" : ""}</p>` : ""}`;
}

function renderHand(s, v) {
  return v.hand.map((card) => {
    const usable = actionsWith(card.c).length > 0;
    const cls = (usable ? "usable" : "idle") + (selected === card.c ? " selected" : "");
    return `<div class="hand-slot">${cardButton(card, {
      cls, attrs: `data-hand="${card.c}" data-focus="h${card.c}" draggable="${usable}" data-card="${card.c}" data-where="hand"`, fresh: isFresh(card), disabled: !usable,
    })}<span class="key">${card.key}</span></div>`;
  }).join("");
}

function renderActions(s) {
  const buttons = s.actions.filter((a) => !["play", "beat"].includes(a.kind)).map((a) =>
    `<button class="action ${a.kind}${a.cheat ? " cheat" : ""}" data-focus="x${a.kind}${a.card ?? ""}" data-action='${esc(JSON.stringify(a))}'
      title="${esc(a.keys)}">${esc(a.label)} <kbd>${esc(a.keys)}</kbd></button>`).join("");
  return buttons;
}

// After Leave: the seat has left (mid-game: a loss); no button, as nothing would answer it.
function renderLeft(s) {
  const e = s.end;
  return `<div class="end" role="dialog" aria-modal="true" aria-labelledby="left-title">
    <div class="end-box">
      <h2 id="left-title">${esc(s.left)}</h2>
      ${e ? `<p class="verify"><span>${esc(s.strings.verify)}</span> <code id="verify-line">${esc(e.verify)}</code></p>
        ${e.saved ? `<p class="saved">${esc(e.saved)}</p>` : ""}` : ""}
    </div></div>`;
}

function renderEnd(s) {
  const e = s.end;
  if (s.left) return renderLeft(s);
  if (!e) return "";
  const isDurak = e.durak !== null && e.durak !== undefined;
  return `<div class="end" role="dialog" aria-modal="true" aria-labelledby="end-title">
    <div class="end-box">
      ${isDurak ? durakPicture(e.pogony, s.strings.durak) : ""}
      <h2 id="end-title">${esc(e.lines[0] || "")}</h2>
      ${e.lines.slice(1).map((l) => `<p>${esc(l)}</p>`).join("")}
      ${e.score ? `<p class="score">${esc(e.score)}</p>` : ""}
      <p class="verify"><span>${esc(s.strings.verify)}</span> <code id="verify-line">${esc(e.verify)}</code></p>
      ${e.saved ? `<p class="saved">${esc(e.saved)}</p>` : ""}
      ${e.verify_command ? `<p class="saved">${esc(e.verify_command)}</p>` : ""}
      <p><a id="download" href="${esc(e.download)}" download>${esc(s.strings.download)}</a></p>
      <div class="end-buttons">
        ${e.next ? `<button id="next-game" class="action primary">${esc(s.strings.next_game)}</button>` : ""}
        <button id="leave-end" class="action">${esc(s.strings.leave)}</button>
      </div>
    </div></div>`;
}

// The last moves, numbered by their place in the kept log (real elements, not list markers: a marker sits
// outside the box and two digits were cut at the scrolling list's edge).
function renderMoves(log) {
  const shown = log.slice(-12);
  const first = log.length - shown.length + 1;
  return shown.map((line, i) => `<li><span class="n">${first + i}.</span><span class="t">${esc(line)}</span></li>`).join("");
}

// One invite form with its label and a Copy button (the page is a secure context: 127.0.0.1).
function inviteRow(id, label, text, copy) {
  return `<div class="invite-row"><span class="invite-label" id="${id}-label">${esc(label)}</span>
    <code id="${id}" aria-labelledby="${id}-label">${esc(text)}</code>
    <button type="button" class="action small copy" data-copy="${esc(text)}" aria-describedby="${id}-label">${esc(copy)}</button></div>`;
}

function renderLobby(l) {
  return `<div class="lobby">
    ${l.qr ? `<div class="qr" aria-hidden="true">${l.qr}</div>` : ""}
    <div class="lobby-text">
      ${l.heading ? `<h2 class="lobby-heading" id="lobby-heading">${esc(l.heading)}</h2>` : ""}
      ${l.invite ? `<p class="invite-how" id="invite-how">${esc(l.invite_how)}</p>
        ${inviteRow("invite", l.link_label, l.link, l.copy)}` : ""}
      ${l.short ? inviteRow("short", l.short_label, l.short, l.copy) : ""}
      ${l.web_link ? inviteRow("web-link", l.web_label, l.web_link, l.copy) : ""}
      ${l.digest ? `<p class="digest"><span id="digest-label">${esc(l.digest_label)}</span> <code id="digest" aria-labelledby="digest-label">${esc(l.digest)}</code></p>` : ""}
      ${l.table_code ? `<p class="code" id="table-code">${esc(l.table_code)}</p>` : ""}
      ${l.confirm ? `<p class="confirm" id="confirm">${esc(l.confirm)}</p>` : ""}
      <p id="waiting">${esc(l.waiting)}</p>
      ${l.can_start ? `<button id="start" class="action primary" data-focus="start">${esc(l.start)}</button>` : ""}
      ${l.lines.map((line) => `<p class="notice">${esc(line)}</p>`).join("")}
      ${l.failure ? `<p class="failure" id="failure" role="alert">${esc(l.failure)}</p>` : ""}
    </div>
    ${l.seated.length ? `<section class="links" aria-labelledby="seated-title">
      <h2 id="seated-title">${esc(l.seated_title)}</h2>
      <ul id="seated">${l.seated.map((name) => `<li>${esc(name)}</li>`).join("")}</ul></section>` : ""}
    ${l.links.length ? `<section class="links" aria-labelledby="links-title">
      <h2 id="links-title">${esc(l.links_title)}</h2>
      <ul id="links">${l.links.map((k) => `<li data-seat="${k.seat}" data-path="${esc(k.path)}">${esc(k.text)}</li>`).join("")}</ul></section>` : ""}
    ${l.options.length ? `<section class="options" aria-labelledby="options-title">
      <h2 id="options-title">${esc(l.options_title)}</h2>
      <ul id="options">${l.options.map((o) => `<li>${esc(o)}</li>`).join("")}</ul></section>` : ""}
    </div>`;
}

// `join` with no link: the tables found nearby (when something looks for them), each with its Join button (off
// until its row has held its place a moment: the list may change under the pointer), then the box to paste a link
// into; a link the process refused shows why, in place, and stays in the box.
function renderPick(p, strings) {
  const rows = (p.nearby || []).map((t) => `<li class="nearby-table">
      <div><strong class="nearby-host">${esc(t.host)}</strong>
        ${t.address ? `<span class="nearby-address">${esc(t.address)}</span>` : ""}
        ${t.seats ? `<span class="nearby-seats">${esc(t.seats)}</span>` : ""}
        ${t.options ? `<div class="nearby-options">${esc(t.options)}</div>` : ""}</div>
      <button type="button" class="action join-nearby" data-link="${esc(t.link)}" aria-label="${esc(t.join)}"${t.ready ? "" : " disabled"}>${esc(strings.join_button)}</button>
    </li>`).join("");
  const nearby = p.nearby === null ? "" : `<section class="nearby" id="nearby" aria-labelledby="nearby-title">
      <h2 id="nearby-title">${esc(strings.nearby_title)}</h2>
      ${rows ? `<ul>${rows}</ul>` : `<p class="empty">${esc(strings.nearby_none)}</p>`}
    </section>`;
  return `<div class="pick">
    <h2>${esc(strings.join_title)}</h2>
    ${nearby}
    <form id="link-form" class="link-form" autocomplete="off">
      <label for="link">${esc(strings.join_paste)}</label>
      <div class="link-row"><input id="link" data-focus="link" spellcheck="false" autocapitalize="off"
        placeholder="durak://…" aria-describedby="link-forms link-error"${p.error ? ' aria-invalid="true"' : ""}>
        <button type="submit" class="action primary" id="join">${esc(strings.join_button)}</button></div>
      <p class="link-error" id="link-error" role="alert">${p.error ? `${esc(p.error)} <span class="detail">${esc(p.detail)}</span>` : ""}</p>
      <p class="hint" id="link-forms">${esc(strings.join_forms)}</p>
    </form></div>`;
}

function newestMove() { // the newest move in sight (a short box, as on a phone, shows its end)
  const moves = root.querySelector(".log");
  if (moves) moves.scrollTop = moves.scrollHeight;
}
window.addEventListener("resize", newestMove); // (a phone turned, a window narrowed)

function render() {
  const s = state;
  const focusKey = document.activeElement?.dataset?.focus;
  const typed = document.getElementById("keys")?.value || "";
  const typing = document.activeElement?.id === "keys";
  const pasted = document.getElementById("link")?.value;
  root.classList.remove("offline");
  root.classList.toggle("gone", gone);
  root.classList.toggle("in-lobby", Boolean(s.lobby || s.pick));
  document.documentElement.lang = s.lang;
  document.title = s.strings.game_name;
  const v = s.view;
  const me = s.players.find((p) => p.me);
  const langs = s.languages.map(([code, name]) =>
    `<option value="${code}"${code === s.lang ? " selected" : ""}>${esc(name)}</option>`).join("");
  if (selected !== null && !actionsWith(selected).some((a) => a.kind === "beat")) selected = null;
  const before = capture();
  root.innerHTML = `
  ${gone && !s.left ? `<p class="gone-note" id="gone" role="alert">${esc(s.strings.gone)}</p>` : ""}
  <header class="bar">
    <h1>${esc(s.strings.game_name)}</h1>
    <span class="variant">${v ? esc(v.header.join(" · ")) : ""}</span>
    <label class="lang">${esc(s.strings.language)}
      <select id="lang" data-focus="lang">${langs}</select></label>
    ${s.left ? "" : `<button id="leave" class="action small" data-focus="leave">${esc(s.strings.leave)}</button>`}
  </header>
  <main class="layout">
    <div class="players" aria-label="${esc(s.strings.players)}">${renderPlayers(s)}</div>
    <section class="center">
      ${v ? `<div class="deck" aria-label="${esc(v.stock_text)}">
        <div class="stock" data-spot="stock">${v.stock > 0 ? `<div class="trump-card">${cardFace(v.trump)}</div>${cardBack("top")}` :
          `<div class="trump-card alone">${cardFace(v.trump)}</div>`}</div>
        <div class="discard-pile${v.discard ? "" : " empty"}" data-spot="discard" aria-hidden="true">${v.discard ? cardBack("pile") + cardBack("pile") : ""}</div>
        <p class="deck-text"><span id="stock-text">${esc(v.stock_text)}</span><br>${esc(v.trump_text)}<br>
          <span id="discard-text">${esc(v.discard_text)}</span></p>
      </div>
      <div class="table" aria-label="${esc(s.strings.table)}"><h2>${esc(s.strings.table)}</h2>${renderTable(s, v)}</div>` :
      (s.pick ? renderPick(s.pick, s.strings) : s.lobby ? renderLobby(s.lobby) : `<p class="progress big">${esc(s.progress || s.strings.connecting)}</p>`)}
    </section>
    <aside class="log" aria-label="${esc(s.strings.last_moves)}">
      <h2>${esc(s.strings.last_moves)}</h2>
      <ol class="moves">${renderMoves(s.log)}</ol>
      ${s.notices.map((n) => `<p class="notice">${esc(n)}</p>`).join("")}
    </aside>
  </main>
  <section class="mine${me && me.acting ? " acting" : ""}">
    <p class="status" id="status" aria-live="polite">${esc(s.progress || s.status)}
      ${selected !== null ? `<strong>${esc(s.strings.pick_attack)}</strong>` : ""}</p>
    ${s.timer !== null && s.timer !== undefined ? `<p class="timer" id="timer" data-left="${s.timer}">${esc(s.strings.time_left.replace("{seconds}", s.timer))}</p>` : ""}
    <p class="message${s.message.error ? " error" : ""}" id="message" role="status">${esc(s.message.text)}</p>
    <div class="actions" id="actions">${renderActions(s)}</div>
    <h2 class="hand-title">${esc(s.strings.hand)}${v && v.my_roles.length ? ` <span>${esc(v.my_roles.join(" · "))}</span>` : ""}</h2>
    <div class="hand" id="hand">${v ? renderHand(s, v) : ""}</div>
    <form id="keys-form" class="keys" autocomplete="off">
      <label for="keys">${esc(s.strings.keys)}</label>
      <input id="keys" data-focus="keys" placeholder="3 · b 1 5 · t · d" spellcheck="false">
    </form>
  </section>
  ${renderEnd(s)}`;
  const input = document.getElementById("keys");
  input.value = typed;
  const linkBox = document.getElementById("link");
  if (linkBox && pasted !== undefined) linkBox.value = pasted;
  if (typing) input.focus();
  else if (focusKey) root.querySelector(`[data-focus="${focusKey}"]`)?.focus();
  else if (linkBox) linkBox.focus();
  const now = new Set();
  if (v) {
    for (const c of v.hand) now.add(c.c);
    for (const p of v.table) { now.add(p.attack.c); if (p.beat) now.add(p.beat.c); }
    if (pending && v.table.some((p) => p.attack.c === pending.card || p.beat?.c === pending.card)) {
      window.__durak.latencies.push(performance.now() - pending.t0);
      pending = null;
    }
  }
  seen = now;
  newestMove();
  animateMoves(before, shown, s);
  shown = s;
  if (s.end && !s.left) document.getElementById(s.end.next ? "next-game" : "leave-end")?.focus();
}

// ------------------------------------------------------------------------------------------------ card movements
// A card that moves (hand -> table, table -> discard pile after Bito, table -> the taker's hand after Beru, stock ->
// hand) is drawn once more on a layer above the page and flies from where it was to where it is now. The real card
// is in its place from the first moment (it only fades in as the flight lands), and the layer takes no pointer
// events: a click never waits for an animation and never hits a flying card. No flights with reduced motion.

const FLIGHT_MS = 260;
const stillness = window.matchMedia("(prefers-reduced-motion: reduce)");
const layer = document.createElement("div");
layer.className = "flights";
layer.setAttribute("aria-hidden", "true");
document.body.appendChild(layer);
let shown = null; // the state on screen before this render
const landing = new Map(); // card -> when its flight lands (a render during the flight keeps it hidden till then)
window.__durak.flights = [];

function box(el) { // where a card is (its centre, transforms included) and its size (without them)
  el.classList.remove("fresh"); // (a card that flies needs no fade-in, and its first frame is turned)
  const r = el.getBoundingClientRect();
  return { cx: r.left + r.width / 2, cy: r.top + r.height / 2, w: el.offsetWidth || r.width, h: el.offsetHeight || r.height };
}

function capture() {
  if (stillness.matches) return null;
  const cards = new Map();
  for (const el of root.querySelectorAll("[data-card]")) {
    const r = el.getBoundingClientRect();
    cards.set(Number(el.dataset.card), { el, where: el.dataset.where, by: el.dataset.by,
      box: { cx: r.left + r.width / 2, cy: r.top + r.height / 2, w: el.offsetWidth, h: el.offsetHeight } });
  }
  return cards;
}

function spot(selector, size) { // a card of `size` in the middle of a player's corner, the stock or the pile
  const el = root.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return { cx: r.left + r.width / 2, cy: r.top + r.height / 2, w: size.w, h: size.h };
}

function fly(node, from, to, kind, real = null, shrink = 1) {
  if (!from || !to || !from.w) return;
  const ghost = node.cloneNode(true);
  for (const el of [ghost, ...ghost.querySelectorAll("*")]) {
    for (const name of [...el.getAttributeNames()]) if (name.startsWith("data-") || name === "id") el.removeAttribute(name);
  }
  ghost.classList.remove("fresh", "selected", "target", "usable", "idle");
  ghost.classList.add("flying");
  Object.assign(ghost.style, { left: `${from.cx - from.w / 2}px`, top: `${from.cy - from.h / 2}px`,
    width: `${from.w}px`, height: `${from.h}px` });
  layer.appendChild(ghost);
  const scale = Math.max(0.3, Math.min(1.5, to.w / from.w)) * shrink;
  const end = { transform: `translate(${to.cx - from.cx}px, ${to.cy - from.cy}px) scale(${scale})`, opacity: real ? 1 : 0.4 };
  const flight = ghost.animate([{ transform: "none", opacity: 1 }, end], { duration: FLIGHT_MS, easing: "cubic-bezier(.25,.7,.35,1)" });
  flight.onfinish = flight.oncancel = () => ghost.remove();
  if (real) {
    landing.set(Number(real.dataset.card), performance.now() + FLIGHT_MS);
    hideUntilLanded(real, FLIGHT_MS);
  }
  window.__durak.flights.push(kind);
}

function hideUntilLanded(el, left) {
  el.classList.remove("fresh");
  el.animate([{ opacity: 0 }, { opacity: 0, offset: 0.8 }, { opacity: 1 }], { duration: left });
}

function animateMoves(before, prev, s) {
  const now = performance.now();
  for (const [card, lands] of landing) {
    if (lands <= now) { landing.delete(card); continue; }
    const el = root.querySelector(`[data-card="${card}"]`);
    if (el) hideUntilLanded(el, lands - now);
  }
  if (!before || !prev?.view || !s.view || prev.game !== s.game) return;
  const present = new Map();
  for (const el of root.querySelectorAll("[data-card]")) present.set(Number(el.dataset.card), el);
  for (const [card, el] of present) {
    const old = before.get(card);
    const where = el.dataset.where;
    if (old && old.where !== where) {
      fly(old.el, old.box, box(el), where === "table" ? "play" : "take", el);
    } else if (!old && where === "table" && el.dataset.by !== "") {
      const to = box(el);
      fly(el, spot(`.player[data-seat="${el.dataset.by}"]`, to), to, "play", el);
    } else if (!old && where === "hand" && s.view.stock < prev.view.stock) {
      const to = box(el);
      fly(el, spot("[data-spot=stock]", to), to, "draw", el);
    }
  }
  const gone = [...before].filter(([card, old]) => old.where === "table" && !present.has(card));
  if (!gone.length) return;
  const bito = s.view.discard > prev.view.discard;
  for (const [, old] of gone) {
    const seat = s.view.table.length ? old.by : prev.view.defender; // a card taken back, or the taker's cards
    const to = spot(bito ? "[data-spot=discard]" : `.player[data-seat="${seat}"]`, old.box);
    fly(old.el, old.box, to, bito ? "bito" : "take", null, 0.5);
  }
}

// ------------------------------------------------------------------------------------------------ input

function handCard(card) {
  const options = actionsWith(card);
  const play = options.find((a) => a.kind === "play");
  const beats = options.filter((a) => a.kind === "beat");
  if (play) act(play);
  else if (beats.length === 1) act(beats[0]);
  else if (beats.length > 1) { selected = selected === card ? null : card; render(); }
}

root.addEventListener("click", (event) => {
  const el = event.target.closest("button, a");
  if (!el || !state || el.disabled) return;
  if (el.dataset.hand !== undefined) handCard(Number(el.dataset.hand));
  else if (el.dataset.attack !== undefined && selected !== null) {
    const beat = state.actions.find((a) => a.kind === "beat" && a.card === selected && a.attack === Number(el.dataset.attack));
    if (beat) act(beat);
  } else if (el.dataset.action) act(JSON.parse(el.dataset.action));
  else if (el.dataset.copy !== undefined) {
    navigator.clipboard?.writeText(el.dataset.copy).then(() => { el.textContent = state.lobby?.copied || el.textContent; });
  } else if (el.id === "next-game") send({ type: "next" });
  else if (el.id === "start") send({ type: "start" });
  else if (el.dataset.link !== undefined) send({ type: "link", text: el.dataset.link });
  else if (el.id === "leave-end") send({ type: "quit" });
  else if (el.id === "leave" && (state.end || state.pick || state.lobby || confirm(state.strings.leave_confirm))) send({ type: "quit", confirm: true });
});

root.addEventListener("change", (event) => {
  if (event.target.id === "lang") send({ type: "lang", lang: event.target.value });
});

root.addEventListener("submit", (event) => {
  event.preventDefault();
  if (event.target.id === "link-form") {
    send({ type: "link", text: document.getElementById("link").value });
    return;
  }
  const input = document.getElementById("keys");
  const text = input.value.trim();
  input.value = "";
  if (text === "?") { document.body.classList.toggle("show-help"); return; }
  send({ type: "line", text });
});

root.addEventListener("dragstart", (event) => {
  const hand = event.target.closest("[data-hand]");
  if (hand) event.dataTransfer.setData("text/plain", hand.dataset.hand);
});
root.addEventListener("dragover", (event) => { if (event.target.closest("[data-drop]")) event.preventDefault(); });
root.addEventListener("drop", (event) => {
  const pair = event.target.closest("[data-drop]");
  if (!pair || !state) return;
  event.preventDefault();
  const card = Number(event.dataTransfer.getData("text/plain"));
  const beat = state.actions.find((a) => a.kind === "beat" && a.card === card && a.attack === Number(pair.dataset.drop));
  if (beat) act(beat);
});

// The terminal's keys: typing anywhere goes to the keys box (Enter sends it), Escape drops a chosen card.
document.addEventListener("keydown", (event) => {
  const input = document.getElementById("keys");
  if (event.key === "Escape") { selected = null; if (state) render(); return; }
  if (!input || document.activeElement === input || event.ctrlKey || event.metaKey || event.altKey) return;
  if (["SELECT", "INPUT"].includes(document.activeElement?.tagName) || state?.pick) return;
  if (event.key.length === 1 && /[0-9a-zа-я?]/i.test(event.key) && !state?.end) input.focus();
});

// The time left for our move counts down between states (the process sends the seconds left with each state).
let timerStarted = performance.now();
let timerBase = null;
setInterval(() => {
  const el = document.getElementById("timer");
  if (!el || !state) return;
  if (timerBase !== el.dataset.left) { timerBase = el.dataset.left; timerStarted = performance.now(); }
  const left = Math.max(0, Number(el.dataset.left) - Math.floor((performance.now() - timerStarted) / 1000));
  el.textContent = state.strings.time_left.replace("{seconds}", left);
  el.classList.toggle("low", left <= 15);
}, 1000);

let pressed = false;
let dragging = false;
function settle() {
  setTimeout(() => { // after the click event of this press
    holding = pressed || dragging;
    if (!holding && held) { held = false; render(); }
  }, 0);
}
root.addEventListener("pointerdown", () => { pressed = true; holding = true; });
root.addEventListener("dragstart", () => { dragging = true; holding = true; });
for (const name of ["pointerup", "pointercancel"]) document.addEventListener(name, () => { pressed = false; settle(); });
document.addEventListener("dragend", () => { dragging = false; settle(); });

connect();
