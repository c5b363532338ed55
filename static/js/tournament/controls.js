// One tournament's controls: signing in, registering (or joining late) and withdrawing, and the
// organiser's: opening registration, adding bots, starting, removing an entry.
import { ensureGuest, fail, post } from "../api.js";
import { h, icon, put } from "../dom.js";
import { botLevelSelect } from "../gameoptions.js";
import { accountPanel } from "../lobby.js";

/** The organiser's bot choices, kept across redraws: live news must not reset what is typed. */
export function botChoices() {
  return {
    kind: h("select#t-bot-kind", { "aria-label": "bot kind" }, h("option", { value: "heuristic" }, "Heuristic bots"), h("option", { value: "random" }, "Random bots")),
    level: botLevelSelect("t-bot-level"),
    count: h("input#t-bot-count", { type: "number", min: 1, max: 64, value: 1, "aria-label": "how many bots" }),
  };
}

/** POST /api/tournaments/{id}/{path}, one at a time, then a reload of the page's data. */
export async function act(page, path, body) {
  if (page.busy) return;
  page.busy = true;
  try {
    await post(`/api/tournaments/${page.tid}/${path}`, body);
    await page.load();
  } catch (err) { fail(err); } finally { page.busy = false; drawControls(page); }
}

/** The controls for whoever is looking: a sign-in, their entry, and the organiser's row. */
export function drawControls(page) {
  const t = page.tournament;
  const box = page.els.controls;
  if (!t) return;
  if (!page.me()) {
    const open = t.status === "registration" || t.status === "running";
    // One panel for the page's life: live redraws must not wipe a name being typed.
    if (open && !page.signIn) page.signIn = accountPanel(() => { page.load(); });
    put(box, open ? page.signIn : null);
    box.hidden = !open;
    return;
  }
  put(box, entryRow(page), page.isOrganiser() && t.status !== "finished" ? organiserRow(page) : null);
  box.hidden = !box.querySelector("button, input, .t-you");
}

function entryRow(page) {
  const t = page.tournament;
  const mine = t.entries.find((e) => e.account_id === page.me() && e.status === "active");
  const row = h("div.room-actions");
  if (mine) {
    row.append(h("span.t-you", icon("shield"), ` You are entered${mine.seed ? ` (seed ${mine.seed})` : ""}.`));
    if (t.status !== "finished") row.append(h("button#t-withdraw.btn.btn-quiet", { disabled: page.busy, onclick: () => { if (confirm("Withdraw from this tournament?")) act(page, "withdraw", {}); } }, "Withdraw"));
  } else if (t.status === "registration" || t.status === "running") {
    row.append(h("button#t-register.btn.btn-primary", { disabled: page.busy, onclick: async () => {
      try { await ensureGuest("Wanderer"); } catch (err) { fail(err); return; }
      act(page, "register", {});
    } }, t.status === "running" ? "Join late" : "Register"));
  } else if (t.status === "draft") {
    row.append(h("span.muted", "Registration has not opened yet."));
  }
  return row;
}

function organiserRow(page) {
  const t = page.tournament;
  const { kind, level, count } = page.bots;
  const org = h("div.room-actions.t-organiser", h("span.tag.tag-gold", "organiser"));
  if (t.status === "draft") org.append(h("button#t-open.btn.btn-primary", { disabled: page.busy, onclick: () => act(page, "open", {}) }, "Open registration"));
  if (t.status === "registration" || t.status === "running") {
    org.append(count, kind, level, h("button#t-add-bots.btn", { disabled: page.busy, onclick: () => act(page, "bots", { kind: kind.value, difficulty: level.value, count: Number(count.value) || 1 }) }, "Add bots"));
  }
  if (t.status === "registration") {
    org.append(h("button#t-start.btn.btn-primary", { disabled: page.busy || t.entries.length < 2, onclick: () => act(page, "start", {}) }, "Start the tournament"));
  }
  return org;
}
