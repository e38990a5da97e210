// The board's geometry for tests/browser/test_layout.py: piles, top cards, rank indexes and
// the visible part of every playable card (a covered card shows only its strip).
() => {
  const visible = (el) =>
    el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const box = (r) => ({left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  const piles = [...document.querySelectorAll("#board .pile")].filter(visible);
  const out = {piles: [], tops: [], ranks: [], targets: []};
  for (const pile of piles) {
    const cards = [...pile.children].filter(visible);
    if (!cards.length) continue;
    const rects = cards.map((c) => c.getBoundingClientRect());
    out.piles.push({
      name: pile.dataset.pile,
      found: pile.classList.contains("found"),
      left: Math.min(...rects.map((r) => r.left)), top: Math.min(...rects.map((r) => r.top)),
      right: Math.max(...rects.map((r) => r.right)),
      bottom: Math.max(...rects.map((r) => r.bottom)),
    });
    out.tops.push({name: pile.dataset.pile, ...box(rects[rects.length - 1])});
    cards.forEach((card, i) => {
      if (!card.classList.contains("card")) return;
      const text = [...card.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
      const range = document.createRange();
      range.selectNodeContents(text);
      const rank = range.getBoundingClientRect();
      const next = rects[i + 1];
      const r = rects[i];
      let covered = false;
      if (next) {
        covered = next.left < rank.right - 1 && next.right > rank.left + 1 &&
                  next.top < rank.bottom - 1 && next.bottom > rank.top + 1;
      }
      out.ranks.push({
        card: card.getAttribute("aria-label"), size: parseFloat(getComputedStyle(card).fontSize),
        covered,
        inside: rank.left >= r.left - 1 && rank.right <= r.right + 1 &&
                rank.top >= r.top - 1 && rank.bottom <= r.bottom + 1,
      });
      if (card.disabled) return;
      let w = r.width, h = r.height;
      if (next) {
        if (next.top > r.top + 1) h = next.top - r.top;
        else if (next.left > r.left + 1) w = next.left - r.left;
        else if (next.right < r.right - 1) w = r.right - next.right;
      }
      out.targets.push({card: card.getAttribute("aria-label"), w, h});
    });
  }
  return out;
}
