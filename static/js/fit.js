// Zoom to fit: a box's content (the board, the card preview) is scaled down until it fits the
// box, so a table never scrolls inside itself; it is never scaled up past its drawn size.

/** The room inside ``box`` (its size less its padding). */
function room(box) {
  const s = getComputedStyle(box);
  const px = (v) => parseFloat(v) || 0;
  return {
    w: box.clientWidth - px(s.paddingLeft) - px(s.paddingRight),
    h: box.clientHeight - px(s.paddingTop) - px(s.paddingBottom),
  };
}

/**
 * Scale the children of ``box`` with CSS zoom so that together they fit it. A block that
 * fills the box's width keeps filling it when zoomed (its lines reflow longer, which makes it
 * shorter); content that grows with its width (a picture at 100%) is pinned to its drawn
 * width instead and shrinks as one picture.
 */
export function fitBox(box) {
  if (!box || !box.isConnected || !box.firstElementChild) return 1;
  const kids = [...box.children];
  for (const kid of kids) { kid.style.zoom = ""; kid.style.width = ""; }
  const { w, h } = room(box);
  if (w <= 0 || h <= 0) return 1;
  const natural = extent(box, kids);
  const first = Math.min(1, w / natural.w, h / natural.h);
  if (first >= 0.999) return 1;
  // Zoomed text and borders round to whole pixels, so a guess may miss by a pixel or two:
  // measure again and shrink a little more (a few rounds at most).
  let zoom = 1;
  for (let round = 0; round < 3; round += 1) {
    const need = round ? extent(box, kids) : natural;
    const scale = Math.min(1, w / need.w, h / need.h);
    if (scale >= 0.999) return zoom;
    zoom = Math.floor(zoom * scale * 1000 - (round ? 5 : 0)) / 1000;
    for (const kid of kids) kid.style.zoom = String(zoom);
  }
  const now = extent(box, kids);
  if (now.w <= w + 0.5 && now.h <= h + 0.5) return zoom;
  // Reflowing did not help: scale the drawn layout as it is.
  for (const kid of kids) { kid.style.zoom = ""; }
  const widths = kids.map((kid) => kid.getBoundingClientRect().width);
  kids.forEach((kid, i) => { kid.style.width = `${widths[i]}px`; kid.style.zoom = String(Math.floor(first * 1000) / 1000); });
  return first;
}

/** The size the children take (overflow included), in the box's own pixels. */
function extent(box, kids) {
  const top = box.getBoundingClientRect();
  const s = getComputedStyle(box);
  const left = top.left + box.clientLeft + (parseFloat(s.paddingLeft) || 0);
  const upper = top.top + box.clientTop + (parseFloat(s.paddingTop) || 0);
  let right = left, bottom = upper;
  for (const kid of kids) {
    const r = kid.getBoundingClientRect();
    // A child's own overflow (cards spilling past it) counts: its scroll size, zoomed.
    const z = parseFloat(kid.style.zoom) || 1;
    right = Math.max(right, r.right, r.left + kid.scrollWidth * z);
    bottom = Math.max(bottom, r.bottom, r.top + kid.scrollHeight * z);
  }
  return { w: right - left, h: bottom - upper };
}

/**
 * Scale the children of ``box``, whose height follows its content (the opponents' row), so
 * that it takes at most ``share`` of its parent's height (a table of four stays one screen).
 */
export function fitShare(box, share) {
  if (!box || !box.isConnected || !box.parentElement) return 1;
  const kids = [...box.children];
  for (const kid of kids) kid.style.zoom = "";
  const limit = box.parentElement.clientHeight * share;
  let zoom = 1;
  for (let round = 0; round < 3 && limit > 0; round += 1) {
    const height = box.getBoundingClientRect().height;
    if (height <= limit + 0.5) break;
    zoom = Math.floor(zoom * (limit / height) * 1000 - (round ? 5 : 0)) / 1000;
    for (const kid of kids) kid.style.zoom = String(zoom);
  }
  return zoom;
}

/**
 * Keep ``boxes`` fitted, and each [box, share] of ``shares`` within its share of its parent,
 * while the page lays out anew (a panel opens, the window turns). The shared boxes go first:
 * what they give back is room for the others.
 */
export function keepFitted(boxes, shares = []) {
  const fit = () => {
    for (const [box, share] of shares) fitShare(box, share);
    for (const box of boxes) fitBox(box);
  };
  const observer = new ResizeObserver(fit);
  for (const box of boxes) observer.observe(box);
  // A shared box's own height follows its zoom: watch its parent (sized by the page) instead.
  for (const [box] of shares) if (box.parentElement) observer.observe(box.parentElement);
  return { fit, stop: () => observer.disconnect() };
}
