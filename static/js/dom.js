// DOM helpers shared by every page: element builder, toasts, small formatters.

/** h("div#id.a.b", {onclick, ...attrs}, ...children): a tiny element builder. */
export function h(tag, attrs, ...children) {
  const [head, ...classes] = tag.split(".");
  const [name, id] = head.split("#");
  const el = document.createElement(name || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className += (el.className ? " " : "") + value;
    else if (key === "html") el.innerHTML = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, String(v));
        else el.style[prop] = v;
      }
    }
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An inline SVG element from markup (card art is built as strings). */
export function svg(markup) {
  const holder = document.createElement("span");
  holder.innerHTML = markup.trim();
  return holder.firstElementChild;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** A toast in the corner; kind "error" toasts stay longer. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h(`div.toast.toast-${kind}`, { role: kind === "error" ? "alert" : "status" }, text);
  box.append(item);
  setTimeout(() => item.classList.add("toast-out"), kind === "error" ? 5000 : 2800);
  setTimeout(() => item.remove(), kind === "error" ? 5600 : 3400);
}

export function seconds(ms) {
  if (ms === null || ms === undefined) return "";
  const s = Math.max(0, Math.ceil(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : `${s}s`;
}

export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function signed(n) {
  if (n === null || n === undefined) return "–";
  return n > 0 ? `+${n}` : String(n);
}

const ICONS = {
  castle: '<path d="M2 15V6h2v2h2V6h4v2h2V6h2v9z"/><rect x="7" y="10" width="2" height="5" fill="#15101b"/>',
  shield: '<path d="M8 1l6 2v5c0 4-3 6-6 7-3-1-6-3-6-7V3z"/>',
  hand: '<rect x="2" y="4" width="7" height="10" rx="1.5" transform="rotate(-12 5 9)"/><rect x="7" y="3" width="7" height="10" rx="1.5" transform="rotate(10 10 8)"/>',
  flag: '<path d="M3 1h1.6v14H3z"/><path d="M4.6 2h9l-2.5 3.5L13.6 9h-9z"/>',
  clock: '<path d="M8 1a7 7 0 110 14A7 7 0 018 1zm0 2a5 5 0 100 10A5 5 0 008 3zm-.8 1.5h1.6v3.8l2.6 1.6-.8 1.3-3.4-2z"/>',
  star: '<path d="M8 1l2.1 4.6 5 .5-3.8 3.3 1.1 4.9L8 11.8 3.6 14.3l1.1-4.9L.9 6.1l5-.5z"/>',
};

/** A small inline icon (currentColor), so no emoji font is needed. */
export function icon(name, label) {
  const el = svg(`<svg class="icon" viewBox="0 0 16 16" fill="currentColor" ${label ? `role="img" aria-label="${label}"` : 'aria-hidden="true"'}>${ICONS[name] || ""}</svg>`);
  return el;
}

/** Replace an element's children (null, false and arrays handled like h's children). */
export function put(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

/** Append children to an element, skipping null and false (native append writes "null"). */
export function add(el, ...children) {
  append(el, children);
  return el;
}

/** A selector for the focused control inside ``root`` that survives a redraw (cells by
 * coordinates, dials by seat, hand cards by position, else the id), or null. */
export function rememberFocus(root) {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  if (el.dataset.seat !== undefined && el.classList.contains("dial-button")) return `.dial-button[data-seat="${el.dataset.seat}"]`;
  if (el.dataset.x !== undefined) return `[data-x="${el.dataset.x}"][data-y="${el.dataset.y}"]`;
  if (el.classList.contains("hand-card")) return `.hand .hand-card:nth-child(${[...el.parentElement.children].indexOf(el) + 1})`;
  if (el.id) return `#${el.id}`;
  return null;
}

/** Focus again what rememberFocus named, if it is still a button. */
export function restoreFocus(root, selector) {
  if (!selector) return;
  const el = root.querySelector(selector);
  if (el && el.tagName === "BUTTON") el.focus({ preventScroll: true });
}
