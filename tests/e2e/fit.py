"""What a person sees of a page, measured in the browser: no page scroll, no box that hides
part of its content behind a scroll or a clip, and every control and card wholly inside the
viewport; checked at the two sizes the client is made for (1280x800 and 390x844)."""

from __future__ import annotations

from typing import Any

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = (("1280x800", DESKTOP), ("390x844", PHONE))

# The part of an element nothing clips, as a JavaScript declaration to put in a measuring
# function: ``visibleBox(el)`` is its box cut by every ancestor that clips overflow, and by the
# viewport ({l, t, r, b}).
VISIBLE_BOX = """const visibleBox = (el) => {
    const r = el.getBoundingClientRect();
    let box = {l: r.left, t: r.top, r: r.right, b: r.bottom};
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") {
        const q = p.getBoundingClientRect();
        box = {l: Math.max(box.l, q.left), t: Math.max(box.t, q.top),
               r: Math.min(box.r, q.right), b: Math.min(box.b, q.bottom)};
      }
    }
    return {l: Math.max(box.l, 0), t: Math.max(box.t, 0),
            r: Math.min(box.r, window.innerWidth), b: Math.min(box.b, window.innerHeight)};
  };"""

# What is out of sight inside ``scope`` (a selector): the page scrolling (unless the page may
# scroll, as a long page does to bring ``scope`` into view), a box hiding part of
# its content (text cut with an ellipsis on purpose aside), a control, card or castle cut by
# the viewport or by a clipping box around it. The chronicle drawer, the closed part of a
# <details> and an open discard list keep their own scroll. Returns readable problems.
MEASURE = (
    """([scope, pageMayScroll]) => {
  const vw = window.innerWidth, vh = window.innerHeight;
"""
    + VISIBLE_BOX
    + """
  const root = document.querySelector(scope);
  if (!root) return [`nothing matches ${scope}`];
  const problems = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + [...el.classList].slice(0, 3).map((c) => "." + c).join("")
    + (el.dataset.card ? `[${el.dataset.card}]` : "");
  const doc = document.documentElement;
  if (doc.scrollWidth > vw + 1) problems.push(`the page is ${doc.scrollWidth} px wide`);
  if (!pageMayScroll && doc.scrollHeight > vh + 1) {
    problems.push(`the page is ${doc.scrollHeight} px tall`);
  }
  const own = (el) => !el.closest("svg, .side, details:not([open]) > :not(summary), .sr-only");
  for (const el of root.querySelectorAll("*")) {
    if (!el.getClientRects().length || !own(el)) continue;
    const s = getComputedStyle(el);
    if (s.textOverflow === "ellipsis" || s.webkitLineClamp !== "none") continue;
    const hidesX = s.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1;
    const hidesY = s.overflowY !== "visible" && el.scrollHeight > el.clientHeight + 1;
    if (hidesX || hidesY) {
      problems.push(`${name(el)} hides content: ${el.scrollWidth}x${el.scrollHeight}`
        + ` in ${el.clientWidth}x${el.clientHeight}`);
    }
  }
  const wanted = root.querySelectorAll(`button, input, select, a, [role=button], .card, .rp-card,
    .em-card, .cs-card, .cs-hand-card, .dial, .rp-stack, .rp-player, .cs-seat, .em-area`);
  for (const el of wanted) {
    if (!el.getClientRects().length || !own(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const box = visibleBox(el);
    const seenW = Math.max(0, box.r - box.l), seenH = Math.max(0, box.b - box.t);
    if (seenW < r.width - 1 || seenH < r.height - 1) {
      const round = (x) => Math.round(x);
      problems.push(`${name(el)} is cut: ${round(r.width)}x${round(r.height)}`
        + ` at ${round(r.left)},${round(r.top)} shows ${round(seenW)}x${round(seenH)}`);
    }
  }
  // A control must take a tap at its middle (nothing drawn over it there), hand cards aside:
  // they overlap like a fan and show a strip each.
  for (const el of root.querySelectorAll("button, input, select, a")) {
    const fanned = el.closest(".hand, .cs-hand, .em-hand");
    if (!el.getClientRects().length || !own(el) || fanned) continue;
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x > vw || y > vh) continue;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit !== el && !el.contains(hit)) {
      problems.push(`${name(el)} is covered at its middle by ${name(hit)}`);
    }
  }
  return problems;
}"""
)

SETTLE = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def problems(page: Any, scope: str, anchor: str | None = None) -> list[str]:
    """What is out of sight in ``scope`` on ``page`` as it is drawn now: at the top of the
    page, or (the page may scroll) with ``anchor`` scrolled to the top of the viewport."""
    if anchor:
        page.evaluate(f"() => document.querySelector({anchor!r}).scrollIntoView()")
    else:
        page.evaluate("() => window.scrollTo(0, 0)")
    page.evaluate(SETTLE)
    found: list[str] = page.evaluate(MEASURE, [scope, anchor is not None])
    return found


def check_both_sizes(
    page: Any, what: str, scope: str = "section.table", anchor: str | None = None
) -> None:
    """Resize ``page`` to the phone size, then the desktop size, and assert that ``scope``
    fits each wholly (see ``problems``); the page is left at the desktop size."""
    found = {}
    for size, viewport in SIZES[::-1]:
        page.set_viewport_size(viewport)
        found[size] = problems(page, scope, anchor)
    failed = {size: found_here for size, found_here in found.items() if found_here}
    assert not failed, f"{what} does not fit: {failed}"
