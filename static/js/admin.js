// The admin page (/admin): players' reports, ban/mute a player by name, void/abort a match by
// id, and the audit log. Only an admin's token gets anything (the API answers 403 otherwise).
import { get, post } from "./api.js";
import { clear, h, put, toast, when } from "./dom.js";

/** The page's own stylesheet, added once. */
function useStyles() {
  if (document.getElementById("admin-css")) return;
  document.head.append(h("link#admin-css", { rel: "stylesheet", href: "/static/css/admin.css" }));
}

export function mountAdmin(root) {
  useStyles();
  const status = h("p#admin-status.muted", { role: "status" });
  const reports = h("tbody#admin-reports");
  const audit = h("tbody#admin-audit");
  const filter = h("select#admin-report-filter", { "aria-label": "which reports" },
    h("option", { value: "open" }, "Open"), h("option", { value: "closed" }, "Closed"), h("option", { value: "" }, "All"));
  const playerName = h("input#admin-player", { type: "text", maxlength: 60, placeholder: "player name", "aria-label": "player name" });
  const minutes = h("input#admin-minutes", { type: "number", min: 1, max: 525600, placeholder: "minutes (empty: until unmuted)", "aria-label": "mute minutes" });
  const matchId = h("input#admin-match", { type: "number", min: 1, placeholder: "match id", "aria-label": "match id" });
  const reason = h("input#admin-reason", { type: "text", maxlength: 500, placeholder: "reason (kept in the audit log)", "aria-label": "reason" });
  let alive = true;

  function say(text, kind = "info") {
    status.textContent = text;
    toast(text, kind);
  }

  async function loadReports() {
    const query = filter.value ? `?status=${filter.value}` : "";
    const data = await get(`/api/admin/reports${query}`);
    clear(reports);
    if (!data.reports.length) reports.append(h("tr", h("td.muted", { colspan: 6 }, "No reports.")));
    for (const r of data.reports) {
      const close = r.status === "open"
        ? h("button.btn.btn-small", { onclick: () => act(`/api/admin/reports/${r.id}/close`, { resolution: reason.value }, `report ${r.id} closed`) }, "Close")
        : h("span.muted", r.resolution || "closed");
      reports.append(h("tr", { "data-report": r.id },
        h("td", when(r.created_at)),
        h("td", h("a", { href: `/matches/${r.match_id}`, "data-link": "" }, `#${r.match_id}`)),
        h("td", r.seat === null ? "—" : `seat ${r.seat}`),
        h("td", r.chat_text ? `“${r.chat_text}”` : "—"),
        h("td", r.reason),
        h("td", close)));
    }
  }

  async function loadAudit() {
    const data = await get("/api/admin/audit?limit=20");
    clear(audit);
    for (const a of data.actions) {
      const on = a.account_id ? `player ${a.account_id}` : a.match_id ? `match ${a.match_id}` : a.report_id ? `report ${a.report_id}` : "";
      audit.append(h("tr", h("td", when(a.at)), h("td", a.actor), h("td", a.action), h("td", on), h("td", a.reason)));
    }
  }

  async function refresh() {
    try { await Promise.all([loadReports(), loadAudit()]); } catch (err) { say(err.message, "error"); }
  }

  async function act(path, body, done) {
    try {
      await post(path, body);
      say(done);
      await refresh();
    } catch (err) { say(err.message, "error"); }
  }

  async function onPlayer(action) {
    const name = playerName.value.trim();
    if (!name) { say("Name a player first.", "error"); return; }
    let player;
    try { player = await get(`/api/admin/players?name=${encodeURIComponent(name)}`); } catch (err) { say(err.message, "error"); return; }
    const body = { reason: reason.value };
    if (action === "mute" && minutes.value) body.minutes = Number(minutes.value);
    const done = { ban: "banned", unban: "unbanned", mute: "muted", unmute: "unmuted" }[action];
    await act(`/api/admin/players/${player.id}/${action}`, body, `${player.name} ${done}`);
  }

  async function onMatch(action) {
    const id = Number(matchId.value);
    if (!id) { say("Give a match id first.", "error"); return; }
    await act(`/api/admin/matches/${id}/${action}`, { reason: reason.value || action }, `match ${id} ${action === "void" ? "voided" : "aborted"}`);
  }

  const button = (id, label, onclick, kind = "") => h(`button#${id}.btn${kind}`, { type: "button", onclick }, label);
  filter.addEventListener("change", refresh);

  get("/api/admin/reports?limit=1").then(() => {
    if (!alive) return;
    put(root, h("div.admin-page",
      h("section.hero", h("h1", "Moderation"), h("p", "Every action here is kept in the audit log below.")),
      h("section.panel.admin-actions",
        h("h2", "Act"),
        h("div.admin-row", reason),
        h("div.admin-row", playerName, minutes,
          button("admin-ban", "Ban", () => onPlayer("ban"), ".btn-danger"), button("admin-unban", "Unban", () => onPlayer("unban")),
          button("admin-mute", "Mute", () => onPlayer("mute")), button("admin-unmute", "Unmute", () => onPlayer("unmute"))),
        h("div.admin-row", matchId,
          button("admin-void", "Void rated match", () => onMatch("void"), ".btn-danger"), button("admin-abort", "Abort live match", () => onMatch("abort"))),
        status),
      h("section.panel", h("h2", "Reports"), h("div.filters", filter),
        h("table.admin-table", h("thead", h("tr", h("th", "When"), h("th", "Match"), h("th", "Seat"), h("th", "Chat line"), h("th", "Reason"), h("th", ""))), reports)),
      h("section.panel", h("h2", "Audit log"),
        h("table.admin-table", h("thead", h("tr", h("th", "When"), h("th", "Who"), h("th", "Action"), h("th", "On"), h("th", "Why"))), audit))));
    refresh();
  }).catch((err) => {
    if (!alive) return;
    const text = err.status === 401 || err.status === 403 ? "This page is for admins only." : err.message;
    put(root, h("section#admin-denied.panel", h("h1", "Moderation"), h("p", text)));
  });
  return () => { alive = false; };
}
