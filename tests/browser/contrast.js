// Text whose contrast with what is behind it is under WCAG's 4.5:1 (3:1 for large text), for
// tests/browser/test_layout.py. Text over an image or gradient (the felt) is measured against
// its first solid background; disabled controls are exempt, as WCAG says.
() => {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return {r, g, b, a};
  };
  const lum = ({r, g, b}) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const solid = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      const c = parse(s.backgroundColor);
      if (c && c.a > 0.5) return c;
      if (s.backgroundImage !== "none") {
        const m = s.backgroundImage.match(/rgba?\([^)]+\)|#[0-9a-f]{6}/gi);
        const colours = (m || []).map(parse).filter((x) => x && x.a > 0.5);
        if (colours.length) return colours[colours.length - 1];
      }
    }
    return parse(getComputedStyle(document.body).backgroundColor);
  };
  const failures = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!el.getClientRects().length || el.closest("[disabled], [aria-disabled='true'], svg")) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const s = getComputedStyle(el);
    if (s.visibility === "hidden" || s.opacity === "0") continue;
    const fg = parse(s.color);
    const bg = solid(el);
    if (!fg || !bg) continue;
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && parseInt(s.fontWeight, 10) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      failures.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
    }
  }
  return failures;
}
