// Drawing the table around the game: the renderer's board, the header (title, connection,
// who is away, the chronicle toggle, resign), the instruction banner with its flashes, and the
// result when the match is over.
import { get } from "../api.js";
import { gameTitle } from "../catalog.js";
import { add, clear, h, put, rememberFocus, restoreFocus } from "../dom.js";
import { howtoLink } from "../learn/howto.js";
import { resultEl } from "../result.js";
import { moveBy, rendererContext } from "./context.js";

const FLASH_MS = 1800;
const CONNECTION_WORDS = { open: "", connecting: "Connecting…", closed: "Connection lost — reconnecting…", gone: "This match does not exist." };

/** Everything, after a new state: the renderer draws the game, the table the rest. */
export function render(table) {
  const { t, root, els } = table;
  if (!t.view || !t.renderer) return;
  const focus = rememberFocus(root);
  clear(els.actions);
  t.renderer.render(rendererContext(table));
  table.fitted.fit();
  renderHead(table);
  renderBanner(table);
  renderOverlay(table);
  restoreFocus(root, focus);
}

/** The header: the game, the match, spectating, the version, the connection, who is away. */
export function renderHead(table) {
  const { t, els, section } = table;
  const v = t.view;
  const conn = CONNECTION_WORDS[t.connection] || "";
  const canResign = v && t.seat !== null && !v.outcome && t.legal.some((a) => a.type === "resign");
  const open = section.classList.contains("chronicle-open");
  const due = moveBy(t);
  put(els.head,
    h("div.head-title", h("h1", { title: v ? gameTitle(v.game) : null }, v ? gameTitle(v.game) : "Table"), h("span.match-id", `match #${t.matchId}`),
      t.seat === null ? h("span.tag.tag-watch", "spectating") : null,
      h("span.version", { title: "version" }, `v${t.version}`),
      v ? howtoLink(v.game, { newTab: true, cls: "btn btn-quiet howto-table" }) : null),
    conn ? h("div.conn", { role: "status" }, conn) : null,
    due ? h("div#move-by.move-by", { title: `${t.days} days per move` }, due) : null,
    !conn && t.away.size && !(v && v.outcome) ? h("div.conn.away", { role: "status" },
      [...t.away].map((s) => `${t.names[s] || `Seat ${s + 1}`} is disconnected`).join(" · ")) : null,
    h("button#chronicle-toggle.btn.btn-quiet", {
      type: "button", "aria-controls": "chronicle", "aria-expanded": String(open),
      onclick: () => { section.classList.toggle("chronicle-open"); renderHead(table); },
    }, open ? "Close" : "Chronicle"),
  );
  const resign = () => {
    if (confirm("Resign this match? Your castle will be out.")) table.socket.act({ type: "resign" });
  };
  put(els.controls.querySelector(".resign-slot"),
    canResign ? h("button#resign-button.btn.btn-quiet", { onclick: resign }, "Resign") : null);
}

/** The instruction (the renderer's prompt) and, beside it, a flash while it lasts. */
export function renderBanner(table) {
  const { t, els } = table;
  const b = t.banner && t.banner.until > performance.now() ? t.banner : null;
  const r = t.renderer;
  const extra = r && r.bannerClass && t.view ? r.bannerClass(rendererContext(table)) : "";
  els.banner.className = `banner${extra ? ` ${extra}` : ""}`;
  const text = !t.view ? "" : t.view.outcome ? "The game is over."
    : r && r.prompt ? r.prompt(rendererContext(table)) : "";
  // A flash ("AMBUSH!", "True call!") shows beside the instruction, never instead of it.
  // Both parts are updated in place: the ticker redraws every 250 ms.
  if (!els.bannerPrompt) {
    els.bannerPrompt = h("span.banner-prompt");
    els.bannerBurst = h("span.banner-burst", { role: "status" });
    els.banner.append(els.bannerPrompt, els.bannerBurst);
  }
  if (els.bannerPrompt.textContent !== text) els.bannerPrompt.textContent = text;
  const burst = b ? b.text : "";
  const burstClass = b ? `banner-burst banner-flash banner-${b.kind}` : "banner-burst";
  if (els.bannerBurst.textContent !== burst || els.bannerBurst.className !== burstClass) {
    els.bannerBurst.textContent = burst;
    els.bannerBurst.className = burstClass;
  }
}

/** A flash beside the instruction ("AMBUSH!"), for a moment. */
export function flash(table, text, kind) {
  table.t.banner = { text, kind, until: performance.now() + FLASH_MS };
  renderBanner(table);
}

/** The result over the table once the match is over, with its record once loaded. */
export function renderOverlay(table) {
  const { t, els } = table;
  clear(els.overlay);
  const v = t.view;
  if (!v || !v.outcome) return;
  const r = t.renderer;
  const fallback = r && r.castleNames ? r.castleNames(v) : [];
  const names = t.names.length ? t.names : fallback;
  const record = t.result && t.result.seats ? t.result : null;
  const score = r && r.resultScore ? (s) => r.resultScore(v, s) : null;
  const ending = r && r.resultReason ? r.resultReason(v.outcome.reason) : null;
  add(els.overlay, resultEl({ view: v, names, seat: t.seat, record, rated: t.rated, matchId: t.matchId, score, ending }));
}

/** The finished match's record (placings, ledger) for the result. */
export async function loadResult(table) {
  const { t } = table;
  t.result = { loading: true };
  try { t.result = await get(`/api/matches/${t.matchId}`); } catch { t.result = { failed: true }; }
  renderOverlay(table);
}

/** Every 250 ms: the banner's clock words and the renderer's own ticking parts. */
export function tick(table) {
  const { t, root } = table;
  if (!t.view || !t.renderer) return;
  renderBanner(table);
  if (t.renderer.tick) {
    const focus = rememberFocus(root);
    t.renderer.tick(rendererContext(table));
    restoreFocus(root, focus);
  }
}
