// Practice rounds: /practice/<game> starts one (POST /api/practice), /practice/<game>/<id> is the
// live table with a coach under the banner: the scenario's steps (app/practice), one hint at a
// time, following what this seat is sent (events and view), so a hint never knows more than it.
import { ApiError, ensureGuest, get, post, session } from "../api.js";
import { h, put } from "../dom.js";
import { mountTable } from "../table.js";
import { howtoLink } from "./howto.js";
import { RULES } from "./rules_text.js";

const STORE = (matchId) => `rampart.practice.${matchId}`;
// Always listed, never what a step waits for: not offered as "what you can do now".
const NOT_ASKED = new Set(["resign", "call_ambush", "pass"]);

/** /practice/<game>: sign in as a guest when needed, start the match, go to its table. */
export function mountPracticeStart(root, navigate, game) {
  let gone = false;
  const title = RULES[game] ? RULES[game].title : game;
  const status = h("p#practice-status.muted", "Dealing the practice cards…");
  put(root, h("section.panel.learn.practice-start", h("h1", `${title}: practice`), status));
  (async () => {
    try {
      if (!session.token) await guest();
      const started = await post("/api/practice", { game });
      sessionStorage.setItem(STORE(started.match_id), JSON.stringify({ steps: started.steps, moves: started.moves, intro: started.intro, index: 0 }));
      if (!gone) navigate(`/practice/${game}/${started.match_id}`, { replace: true });
    } catch (err) {
      if (gone) return;
      put(status, `Could not start the practice round: ${err.message} `,
        h("a.btn", { href: `/practice/${game}`, "data-link": "" }, "Try again"));
    }
  })();
  return () => { gone = true; };
}

async function guest() {
  // Guest names may be taken by registered players: try a numbered one then.
  try { await ensureGuest("Apprentice"); } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "account/name_taken") throw err;
    await ensureGuest(`Apprentice ${Math.floor(1000 + Math.random() * 9000)}`);
  }
}

/** /practice/<game>/<id>: the table plus the coach. */
export function mountPractice(root, _navigate, game, matchId) {
  const coach = new Coach(game, matchId);
  const stopTable = mountTable(root, matchId, { observe: (message, model) => coach.receive(message, model) });
  // The table's one-screen layout (body[data-page="table"]), with the coach on top of it.
  document.body.dataset.page = "table";
  const table = root.querySelector("section.table");
  if (table) {
    table.classList.add("practice");
    (table.querySelector(".table-main") || table).prepend(coach.el);
  }
  coach.load();
  return () => { coach.stop(); stopTable(); };
}

class Coach {
  constructor(game, matchId) {
    this.game = game;
    this.matchId = matchId;
    this.steps = null;
    this.moves = {};
    this.intro = "";
    this.index = 0;
    this.known = new Set(); // cells where this seat saw an Ambush! card go down, still there
    this.events = []; // this seat's events since the round began: {type, mine, event}
    this.cursor = 0; // the first event the current step may still use
    this.model = null;
    this.last = "";
    this.el = h("aside#coach.coach", { "aria-live": "polite", "aria-label": "practice coach" });
    this.ticker = setInterval(() => this.draw(), 500); // legal actions change without events too
  }

  async load() {
    const kept = JSON.parse(sessionStorage.getItem(STORE(this.matchId)) || "null");
    if (kept && kept.steps) Object.assign(this, { steps: kept.steps, moves: kept.moves || {}, intro: kept.intro || "", index: kept.index || 0 });
    else {
      try {
        const scenario = await get(`/api/practice/${this.game}`, { auth: false });
        Object.assign(this, { steps: scenario.steps, moves: scenario.moves || {}, intro: scenario.intro || "" });
      } catch { this.steps = []; }
    }
    this.advance();
    this.draw();
  }

  stop() { clearInterval(this.ticker); }

  save() {
    sessionStorage.setItem(STORE(this.matchId), JSON.stringify({ steps: this.steps, moves: this.moves, intro: this.intro, index: this.index }));
  }

  get step() { return this.steps && this.steps[this.index]; }

  receive(message, model) {
    this.model = model;
    if (message.type === "patch") {
      const view = message.view || model.view;
      const holder = view ? turnHolder(view) : null;
      for (const event of message.events || []) {
        const mine = typeof event.seat === "number" ? event.seat === model.seat : holder === model.seat;
        this.events.push({ type: event.type, mine, event });
        this.remember(event);
        const line = this.describe(event);
        if (line) this.last = line;
      }
      this.advance();
    }
    if (message.type === "welcome" || message.type === "patch") this.draw();
  }

  /** What this seat saw of the Ambush! cards: exposed or played ones still down. */
  remember(event) {
    const at = (cell) => `${cell[0]},${cell[1]}`;
    if ((event.type === "exposed" || event.type === "played") && event.card === "ambush" && event.cell) this.known.add(at(event.cell));
    else if (event.type === "grabbed" && event.cell) this.known.delete(at(event.cell));
    else if (event.type === "shuffled_back") this.known.clear();
    else if (event.type === "swapped" && event.cells) {
      const [a, b] = event.cells.map(at);
      const hadA = this.known.delete(a);
      const hadB = this.known.delete(b);
      if (hadA) this.known.add(b);
      if (hadB) this.known.add(a);
    }
  }

  /** Complete every step whose event has arrived (in order); "Next" steps wait for a press. */
  advance() {
    let moved = false;
    while (this.step && this.step.done && this.step.done.event) {
      const { event: wanted, by } = this.step.done;
      const types = Array.isArray(wanted) ? wanted : [wanted];
      const found = this.events.findIndex((e, i) => i >= this.cursor && types.includes(e.type) && (!by || (by === "me") === e.mine));
      if (found < 0) break;
      this.cursor = found + 1;
      this.index += 1;
      moved = true;
    }
    if (moved) this.save();
  }

  next() {
    this.index += 1;
    this.save();
    this.advance();
    this.draw();
  }

  describe(event) {
    const t = this.model;
    if (!t || !t.renderer || !t.renderer.describeEvent) return "";
    try {
      const line = t.renderer.describeEvent(event, { view: t.view, legal: t.legal, seat: t.seat, names: t.names, ui: t.ui });
      const text = typeof line === "string" ? line : line && line.text;
      return text ? text[0].toUpperCase() + text.slice(1) : "";
    } catch { return ""; }
  }

  /** Whether a step's condition on what this seat knows holds ("owe", "two_ambushes"). */
  holds(needs) {
    if (needs === "owe") return this.fill("{owed}") !== "0";
    if (needs === "two_ambushes") return this.known.size >= 2;
    return true;
  }

  /** The facts a hint may name: {limit} {owed} {hand} {check} {known}. */
  fill(text) {
    const t = this.model;
    const v = (t && t.view) || {};
    const owedEntry = v.returning && v.returning.owed ? v.returning.owed.find(([seat]) => seat === t.seat) : null;
    const c = v.last_check;
    const facts = {
      limit: v.options && v.options.hand_limit,
      owed: owedEntry ? owedEntry[1] : 0,
      hand: (v.hand || []).length,
      check: c ? checkText(c, t.seat) : "",
      known: this.known.size,
    };
    return text.replace(/\{(\w+)\}/g, (all, name) => (facts[name] ?? all));
  }

  draw() {
    const step = this.step;
    const t = this.model;
    if (!this.steps || !t || !t.view) { put(this.el, h("p.muted", "Getting the coach ready…")); return; }
    if (!step) { put(this.el, h("p", "Practice done.")); return; }
    const legalTypes = (t.legal || []).map((a) => a.type);
    let text = step.hint;
    let button = !!(step.done && step.done.next);
    if (step.needs && !this.holds(step.needs)) { text = step.otherwise; button = !!step.skip; }
    // The step's own action is not legal now: say what is (the scenario's line for it), or
    // that the seat waits.
    const blocked = step.act.length > 0 && !step.act.some((type) => legalTypes.includes(type));
    const now = blocked ? legalTypes.find((type) => this.moves[type] && !NOT_ASKED.has(type)) : null;
    const waiting = now ? this.fill(this.moves[now]) : step.wait && (blocked || !step.act.length) ? step.wait : "";
    const showHint = !(blocked && waiting);
    const last = !step.done || !Object.keys(step.done).length;
    const key = [this.index, waiting, showHint, button, this.last, this.fill(text)].join("|");
    if (key === this.drawn) return;
    this.drawn = key;
    const total = this.steps.length;
    put(this.el,
      h("div.coach-head",
        h("span.coach-badge", "Practice"),
        h("span.coach-count", `Step ${Math.min(this.index + 1, total)} of ${total}`),
        h("span.coach-bar", h("i", { style: { width: `${Math.round((100 * (this.index + 1)) / total)}%` } })),
        howtoLink(this.game, { newTab: true, cls: "coach-howto" }),
        last ? h("a#coach-leave.coach-howto", { href: "/", "data-link": "" }, "Leave practice") : null),
      this.index === 0 && this.intro ? h("p.coach-intro", this.intro) : null,
      h("p#coach-hint.coach-hint", { "data-step": step.id, class: showHint ? "" : "coach-dim" }, this.fill(text)),
      waiting ? h("p#coach-now.coach-wait", waiting) : null,
      this.last ? h("p.coach-last", h("span", "Just now: "), this.last) : null,
      button ? h("button#coach-next.btn.btn-primary", { type: "button", onclick: () => this.next() }, "Next") : null);
    this.el.dataset.step = step.id;
  }
}

/** The last check told to the player: the counts, the verdict and what it costs. */
function checkText(check, seat) {
  const others = check.counts.reduce((sum, n, s) => (s === seat ? sum : sum + n), 0);
  const counts = `you captured ${check.counts[seat] || 0} Ambush! card(s), the others ${others}, and ${check.left} stayed on the battlefield`;
  if (check.valid) return `${counts}: at least two, so the call was a true call and everyone keeps what they captured.`;
  const caller = check.caller === seat ? "you" : "the caller";
  return `${counts}: fewer than two, a false call, so ${caller} lost every captured card to the deck; the others keep theirs.`;
}

/** Whose turn it is, from a view of any game ("active" where "turn" counts turns). */
function turnHolder(view) {
  if (typeof view.active === "number") return view.active;
  return typeof view.turn === "number" ? view.turn : null;
}
