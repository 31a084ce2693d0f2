// Cards drawn as SVG (our own drawing): a rounded card with the rank and suit in two corners and a large suit in
// the middle; a card back with a lattice. Suits: 0 clubs, 1 diamonds, 2 hearts, 3 spades (p2pdurak.cards).
const SUITS = ["\u2663", "\u2666", "\u2665", "\u2660"];
const RED = new Set([1, 2]);

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function suitGlyph(suit) {
  return SUITS[suit];
}

export function cardFace(card, extraClass = "") {
  const suit = SUITS[card.suit];
  const colour = RED.has(card.suit) ? "red" : "black";
  const rank = esc(card.rank_label);
  const trump = card.trump ? " trump" : "";
  return `<svg class="card face ${colour}${trump} ${extraClass}" viewBox="0 0 100 140" role="img" aria-label="${esc(card.label)}">
<rect class="paper" x="1.5" y="1.5" width="97" height="137" rx="9" ry="9"/>
<text class="corner" x="9" y="25">${rank}</text><text class="corner-suit" x="9" y="45">${suit}</text>
<g transform="rotate(180 50 70)"><text class="corner" x="9" y="25">${rank}</text><text class="corner-suit" x="9" y="45">${suit}</text></g>
<text class="pip" x="50" y="88" text-anchor="middle">${suit}</text>
${card.trump ? '<circle class="trump-dot" cx="86" cy="14" r="5"/>' : ""}
</svg>`;
}

// Each back has its own pattern id: url(#id) takes the first element of that id in the page, and a back hidden
// there (the players' fans on a phone) would leave every other back blank.
let backs = 0;
export function cardBack(extraClass = "") {
  const id = `lattice-${backs++}`;
  return `<svg class="card back ${extraClass}" viewBox="0 0 100 140" aria-hidden="true">
<defs><pattern id="${id}" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
<rect width="10" height="10" class="back-fill"/><path d="M0 0 L0 10" class="back-line"/></pattern></defs>
<rect class="back-paper" x="1.5" y="1.5" width="97" height="137" rx="9" ry="9"/>
<rect x="9" y="9" width="82" height="122" rx="5" fill="url(#${id})" class="back-frame"/>
</svg>`;
}

// The durak, with pogony (shoulder boards: the cards the last beat was made with) when they apply.
export function durakPicture(pogony, label) {
  // n sixes as shoulder straps, alternating left and right shoulder
  let boards = "";
  for (let i = 0; i < pogony; i++) {
    const left = i % 2 === 0;
    const k = Math.floor(i / 2);
    const x = left ? 30 + k * 9 : 112 - k * 9;
    const turn = left ? -14 : 14;
    boards += `<g class="pogon" transform="rotate(${turn} ${x + 9} 92)"><rect x="${x}" y="78" width="18" height="26" rx="3"/>
<text x="${x + 9}" y="97" text-anchor="middle">6</text></g>`;
  }
  return `<svg class="durak" viewBox="0 0 160 170" role="img" aria-label="${esc(label)}">
<path class="hat" d="M50 42 Q80 -6 110 42 Z"/><circle class="hat-ball" cx="80" cy="14" r="6"/>
<circle class="head" cx="80" cy="56" r="24"/>
<circle class="eye" cx="71" cy="52" r="3"/><circle class="eye" cx="89" cy="52" r="3"/>
<path class="mouth" d="M68 68 Q80 60 92 68" fill="none"/>
<path class="body" d="M28 168 L28 110 Q28 88 56 86 L104 86 Q132 88 132 110 L132 168 Z"/>
${boards}</svg>`;
}
