// The start page (account, open tables, create a table) and one table's room before the start.
import { ApiError, ensureGuest, fail, get, post, session } from "./api.js";
import { daysPerMoveField, gameTitle, loadGames, timeControlText } from "./catalog.js";
import { add, clear, h, icon, put, toast } from "./dom.js";
import { botLevelSelect, gameOptions } from "./gameoptions.js";
import { learnPanel } from "./learn/panel.js";
import { howtoLink } from "./learn/howto.js";
import { watchLobbies } from "./lobbyfeed.js";
import { recordSeatLabel } from "./seats.js";

/** The account box: guest, log in, register, or who you are. */
export function accountPanel(onChange) {
  const box = h("section.panel.account");
  function draw() {
    clear(box);
    const me = session.account;
    if (me && session.token) {
      box.append(h("h2", "Welcome"),
        h("p", "Playing as ", h("strong#who", me.name), me.guest ? h("span.tag", "guest") : h("span.tag.tag-gold", "registered")),
        h("button.btn.btn-quiet", { onclick: () => { session.forget(); draw(); onChange && onChange(); } }, "Log out"));
      return;
    }
    const guestName = h("input#guest-name", { type: "text", maxlength: 40, placeholder: "Your name", "aria-label": "guest name", required: true });
    const name = h("input#login-name", { type: "text", maxlength: 40, placeholder: "Name", "aria-label": "account name", autocomplete: "username" });
    const password = h("input#login-password", { type: "password", placeholder: "Password (8+)", "aria-label": "password", autocomplete: "current-password" });
    const act = async (fn) => { try { await fn(); draw(); onChange && onChange(); } catch (err) { fail(err); } };
    box.append(
      h("h2", "Enter the keep"),
      h("form.row", { onsubmit: (ev) => { ev.preventDefault(); act(() => ensureGuest(guestName.value.trim() || "Wanderer")); } },
        guestName, h("button#guest-button.btn.btn-primary", { type: "submit" }, "Play as guest")),
      h("div.or", "or"),
      h("form.row.wrap", { onsubmit: (ev) => ev.preventDefault() }, name, password,
        h("button.btn", { type: "button", onclick: () => act(async () => session.save(await post("/api/sessions", { name: name.value.trim(), password: password.value }, { auth: false }))) }, "Log in"),
        h("button.btn.btn-quiet", { type: "button", onclick: () => act(async () => session.save(await post("/api/accounts", { name: name.value.trim(), password: password.value }, { auth: false }))) }, "Register")),
    );
  }
  draw();
  return box;
}

/** The create-a-table form; calls onCreated(lobby). */
function createForm(games, onCreated) {
  const game = h("select#new-game", { "aria-label": "game" }, games.map((g) => h("option", { value: g.id }, g.title)));
  const seats = h("input#new-seats", { type: "number", min: 2, max: 4, value: 2, "aria-label": "seats" });
  const privacy = h("select#new-privacy", { "aria-label": "who may join" }, h("option", { value: "public" }, "Public table"), h("option", { value: "private" }, "Private (invite link)"));
  const rated = h("select#new-rated", { "aria-label": "rated or casual" }, h("option", { value: "casual" }, "Casual"), h("option", { value: "rated" }, "Rated"));
  const turn = h("input#new-turn", { type: "number", min: 0, max: 3600, value: 0, "aria-label": "seconds per turn (0 = untimed)" });
  const timeout = h("select#new-timeout", { "aria-label": "on time-out" }, h("option", { value: "pass" }, "auto-play on time-out"), h("option", { value: "forfeit" }, "forfeit on time-out"));
  const days = daysPerMoveField("new-days", games);
  const first = h("select#opt-first", { "aria-label": "who starts" }, h("option", { value: "vote" }, "Best castle name starts"), h("option", { value: "random" }, "Random first player"));
  const advanced = h("textarea#opt-json", { rows: 3, placeholder: '{"deck": ["knight", ...]} — stack cards for puzzles', "aria-label": "advanced options as JSON" });
  const rules = gameOptions("opt", { ambush: [h("label.field", h("span", "Who starts"), first)] });
  const syncGame = () => {
    const g = games.find((x) => x.id === game.value);
    if (g) { seats.min = g.min_seats; seats.max = g.max_seats; seats.value = Math.min(Math.max(Number(seats.value), g.min_seats), g.max_seats); }
    rules.show(game.value);
    days.showFor(game.value);
  };
  game.addEventListener("change", syncGame);
  syncGame();
  async function submit(ev) {
    ev.preventDefault();
    const options = rules.read(game.value);
    if (advanced.value.trim()) {
      try { Object.assign(options, JSON.parse(advanced.value)); } catch { toast("The advanced options are not valid JSON.", "error"); return; }
    }
    if (game.value === "ambush" && first.value === "random" && options.first_seat === undefined) {
      options.first_seat = Math.floor(Math.random() * Number(seats.value));
    }
    const body = {
      game: game.value, seats: Number(seats.value), options, public: privacy.value === "public",
      rated: rated.value === "rated",
      time_control: Number(turn.value) > 0 ? { turn_ms: Number(turn.value) * 1000, on_timeout: timeout.value } : { on_timeout: timeout.value },
    };
    // Days per move is a time control of its own (the real-time fields go).
    if (days.select.value) body.time_control = { days_per_move: Number(days.select.value) };
    try {
      await ensureGuest(session.account ? session.account.name : "Wanderer");
      onCreated(await post("/api/lobbies", body));
    } catch (err) { fail(err); }
  }
  return h("form#create-table.panel.create", { onsubmit: submit },
    h("h2", "Raise a table"),
    h("div.grid-fields",
      h("label.field", h("span", "Game"), game), h("label.field", h("span", "Seats"), seats),
      h("label.field", h("span", "Who may join"), privacy), h("label.field", h("span", "Ledger"), rated),
      h("label.field", h("span", "Seconds per turn (0: none)"), turn), h("label.field", h("span", "On time-out"), timeout),
      days.field),
    rules.el,
    h("details", h("summary", "Advanced options"), advanced),
    h("button#create-button.btn.btn-primary", { type: "submit" }, "Create table"));
}

export function mountHome(root, navigate) {
  const tables = new Map();
  const list = h("ul#open-tables.tables", { "aria-live": "polite" });
  const drawList = () => {
    clear(list);
    const open = [...tables.values()].filter((l) => l.status === "open").sort((a, b) => b.id - a.id);
    if (!open.length) list.append(h("li.muted", "No open tables. Raise one!"));
    for (const lobby of open) {
      const taken = lobby.members.filter((m) => m.account_id !== null || m.bot).length;
      const host = (lobby.members.find((m) => m.account_id === lobby.host_id) || {}).name || "?";
      list.append(h("li.table-row", { "data-lobby": lobby.id },
        h("div.table-info", h("strong", gameTitle(lobby.game)), h("span.muted", ` hosted by ${host}`),
          h("div.tags", h("span.tag", `${taken}/${lobby.seats} seats`), h("span.tag", lobby.rated ? "rated" : "casual"),
            h("span.tag", timeControlText(lobby.time_control)), lobby.public ? null : h("span.tag", "private"))),
        h("a.btn", { href: `/lobby/${lobby.id}`, "data-link": "" }, taken < lobby.seats ? "Join" : "View")));
    }
  };
  const stop = watchLobbies(
    (lobbies) => { tables.clear(); for (const l of lobbies) tables.set(l.id, l); drawList(); },
    (lobby) => { tables.set(lobby.id, lobby); drawList(); },
  );
  const running = h("section#my-matches.panel", { hidden: true });
  if (session.account && session.token) {
    get(`/api/matches?player=${session.account.id}&status=running&limit=10`).then((data) => {
      if (!data.matches.length) return;
      running.hidden = false;
      put(running, h("h2", "Your matches in progress"), h("ul.tables", data.matches.map((m) =>
        h("li.table-row", h("div.table-info", h("strong", gameTitle(m.game)), h("span.muted", ` ${m.seats.map(recordSeatLabel).join(" vs ")}`)),
          h("a.btn.btn-primary", { href: m.seats.some((s) => s.bot === "practice") ? `/practice/${m.game}/${m.id}` : `/table/${m.id}`, "data-link": "" }, "Rejoin")))));
    }).catch(() => {});
  }
  const main = h("div.home",
    h("section.hero", h("h1", "Rampart"), h("p", "Castle card games with friends, in the browser. Build your wall of face-down cards, remember where the Ambush! cards lie, and be the fastest hand when someone shouts.")),
    h("div.home-grid",
      h("div.col", accountPanel(() => navigate("/", { replace: true })), running, h("section.panel", h("h2", "Open tables"), list), learnPanel()),
      h("div.col.create-slot", h("p.muted", "Loading games…"))));
  put(root, main);
  loadGames().then((games) => {
    put(main.querySelector(".create-slot"), createForm(games, (lobby) => navigate(`/lobby/${lobby.id}`)));
  }).catch(fail);
  return stop;
}

/** /join/{id}[/{code}]: make sure there is an account, take a seat, go to the room. */
export function mountJoin(root, navigate, lobbyId, code) {
  async function join() {
    try {
      await post(`/api/lobbies/${lobbyId}/join`, code ? { invite_code: code } : {});
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "lobby/already_seated")) { fail(err); }
    }
    navigate(`/lobby/${lobbyId}`, { replace: true, state: { code } });
  }
  if (session.token) { join(); put(root, h("p.muted", "Joining…")); return () => {}; }
  put(root, h("div.home", h("section.hero", h("h1", "You are invited"), h("p", "Name yourself and take your seat.")), accountPanel(join)));
  return () => {};
}

/** Who starts after the name vote: a clear winner, or a draw by lot (no votes, or a tie). */
export function voteLine(reply, members) {
  const first = members[reply.first_seat];
  const who = (first && (first.castle || first.name)) || `Seat ${reply.first_seat + 1}`;
  const counts = Object.values(reply.votes || {});
  const top = Math.max(0, ...counts);
  if (top === 0) return `Nobody voted: ${who} goes first, drawn by lot`;
  if (counts.filter((n) => n === top).length > 1) return `A tied vote: ${who} goes first, drawn by lot`;
  return `${who} won the vote`;
}

/** One table before the start: seats, castle names, the vote, bots, start. */
export function mountLobby(root, navigate, lobbyId) {
  let lobby = null;
  const inviteFromUrl = (history.state && history.state.code) || new URLSearchParams(location.search).get("code");
  const box = h("section.panel.lobby-room");
  // What a player is typing survives redraws caused by other players' changes.
  const drafts = {};
  put(root, h("div.room", box));
  // Signed out, me() is undefined: empty seats and bots (account_id null) are never "mine".
  const me = () => (session.account && session.token ? session.account.id : undefined);
  const mine = () => (lobby ? lobby.members.filter((m) => m.account_id !== null && m.account_id === me()) : []);
  const isHost = () => lobby && lobby.host_id === me();

  // Replies, refetches and the feed can arrive out of order: keep the newest revision.
  function show(next) {
    if (lobby && next.revision < lobby.revision) return;
    lobby = next;
    draw();
  }

  async function act(path, body) {
    try { show(await post(`/api/lobbies/${lobbyId}/${path}`, body)); } catch (err) { fail(err); }
  }

  function draw() {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.castleSeat : undefined;
    drawRoom();
    if (focused !== undefined) {
      const input = box.querySelector(`[data-castle-seat="${focused}"]`);
      if (input) input.focus();
    }
  }

  function drawRoom() {
    clear(box);
    if (!lobby) { box.append(h("p.muted", "Loading table…")); return; }
    if (lobby.status === "started" && lobby.match_id) {
      if (mine().length) { navigate(`/table/${lobby.match_id}`, { replace: true }); return; }
      box.append(h("h2", "This match has started"), h("a.btn.btn-primary", { href: `/watch/${lobby.match_id}`, "data-link": "" }, "Watch it"));
      return;
    }
    if (lobby.status !== "open") { box.append(h("h2", "This table is closed"), h("a.btn", { href: "/", "data-link": "" }, "Back")); return; }
    const seated = mine().length > 0;
    const votes = {};
    for (const m of lobby.members) if (m.vote !== null && m.vote !== undefined) votes[m.vote] = (votes[m.vote] || 0) + 1;
    const nameVote = lobby.game === "ambush" || (lobby.options && lobby.options.name_vote);
    const link = `${location.origin}/join/${lobby.id}${lobby.invite_code ? `/${lobby.invite_code}` : ""}`;
    add(box,
      h("div.room-head", h("h2", `${gameTitle(lobby.game)} — table #${lobby.id}`),
        h("div.tags", h("span.tag", lobby.rated ? "rated" : "casual"), h("span.tag", timeControlText(lobby.time_control)), h("span.tag", lobby.public ? "public" : "private"),
          howtoLink(lobby.game, { newTab: true, cls: "btn btn-quiet howto-lobby" }))),
      seated ? h("div.invite", h("span", "Invite link: "), h("input#invite-link", { value: link, readonly: true, "aria-label": "invite link", onfocus: (ev) => ev.target.select() }),
        h("button.btn.btn-quiet", { onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).then(() => toast("Link copied")) }, "Copy")) : null,
      h("ol.seats", lobby.members.map((m) => seatRow(m, votes, nameVote, seated))),
    );
    const actions = h("div.room-actions");
    const open = lobby.members.some((m) => m.account_id === null && !m.bot);
    if (!seated && !open) {
      actions.append(h("p#table-full.muted", "This table is full."), h("a.btn", { href: "/", "data-link": "" }, "Back to the lobby"));
    } else if (!seated) {
      actions.append(h("button#take-seat.btn.btn-primary", { onclick: async () => {
        try { await ensureGuest("Wanderer"); } catch (err) { fail(err); return; }
        act("join", inviteFromUrl ? { invite_code: inviteFromUrl } : {});
      } }, "Take a seat"));
    } else {
      if (isHost()) {
        const kind = h("select#bot-kind", { "aria-label": "bot kind" }, h("option", { value: "heuristic" }, "Heuristic bots"), h("option", { value: "random" }, "Random bots"));
        const level = botLevelSelect("bot-difficulty");
        const free = lobby.members.some((m) => m.account_id === null && !m.bot);
        // A rated table seats no server bot (lobby/rated_bots): bot accounts may still join.
        if (free && lobby.rated) actions.append(h("span#rated-bots-note.muted", "A rated table seats players only: no server bots"));
        else if (free) actions.append(kind, level, h("button#add-bots.btn", { onclick: () => act("bots", { kind: kind.value, difficulty: level.value }) }, "Fill empty seats with bots"));
        actions.append(h("button#start-button.btn.btn-primary", { disabled: free, onclick: start }, "Start the match"));
      } else {
        actions.append(h("span.muted", "Waiting for the host to start…"));
      }
      actions.append(h("button.btn.btn-quiet", { onclick: async () => { await act("leave"); navigate("/"); } }, "Leave"));
    }
    box.append(actions);
  }

  function seatRow(m, votes, nameVote, seated) {
    const isMine = m.account_id !== null && m.account_id === me();
    const who = m.bot ? `${m.name}` : m.name || "empty seat";
    const row = h("li.seat", { "data-seat": m.seat, class: isMine ? "mine" : "" },
      h("div.seat-who", h("span.seat-no", `${m.seat + 1}`), h("strong", who), m.account_id === lobby.host_id ? h("span.tag.tag-gold", "host") : null, m.bot || m.bot_account ? h("span.tag", "bot") : null, m.bot && m.difficulty ? h("span.tag.bot-difficulty", m.difficulty) : null),
      h("div.seat-castle", m.castle ? h("span.castle-name", icon("castle"), ` ${m.castle}`) : h("span.muted", m.account_id || m.bot ? "castle not named yet" : "")),
    );
    if (nameVote && (m.account_id || m.bot)) row.append(h("span.votes", { title: "votes" }, icon("star"), ` ${votes[m.seat] || 0}`));
    if (isMine) {
      const input = h("input.castle-input", {
        type: "text", maxlength: 40, value: drafts[m.seat] ?? m.castle ?? "", placeholder: "Name your castle",
        "aria-label": `castle name for seat ${m.seat + 1}`, "data-castle-seat": m.seat,
        oninput: (ev) => { drafts[m.seat] = ev.target.value; },
      });
      row.append(h("form.row", { onsubmit: (ev) => {
        ev.preventDefault();
        if (!input.value.trim()) return;
        delete drafts[m.seat];
        act("castle", { name: input.value.trim(), seat: m.seat });
      } },
        input, h("button.btn.castle-save", { type: "submit" }, "Name")));
    } else if (seated && nameVote && m.castle && (m.account_id || m.bot)) {
      const myVote = mine()[0] && mine()[0].vote === m.seat;
      row.append(h("button.btn.vote-button", { class: myVote ? "voted" : "", "aria-pressed": myVote ? "true" : "false", onclick: () => act("vote", { for_seat: m.seat, seat: mine()[0].seat }) }, myVote ? "Voted" : "Vote best name"));
    }
    return row;
  }

  async function start() {
    try {
      const reply = await post(`/api/lobbies/${lobbyId}/start`);
      if (reply.votes) toast(voteLine(reply, lobby.members));
      navigate(`/table/${reply.match_id}`);
    } catch (err) { fail(err); }
  }

  const load = () => get(`/api/lobbies/${lobbyId}`).then(show).catch(fail);
  draw();
  load();
  const stop = watchLobbies(() => load(), (changed) => {
    if (changed.id !== Number(lobbyId)) return;
    // The feed strips the invite code for non-members; keep ours.
    show({ ...changed, invite_code: changed.invite_code || (lobby && lobby.invite_code) });
  });
  return stop;
}
