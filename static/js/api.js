// REST calls and the stored account: every request goes through call(), errors become ApiError.
import { toast } from "./dom.js";
import { describe } from "./errors.js";

const TOKEN_KEY = "rampart.token";
const ACCOUNT_KEY = "rampart.account";

export class ApiError extends Error {
  constructor(code, message, status, error = {}) {
    // A 422 names what is wrong with the form: show the server's words, not a generic line.
    super(status === 422 && message ? message : describe(code, message));
    this.code = code;
    this.status = status;
    this.serverMessage = message;
    this.error = error; // the whole error body: extra fields such as match_id
  }
}

export const session = {
  get token() { return localStorage.getItem(TOKEN_KEY); },
  get account() {
    try { return JSON.parse(localStorage.getItem(ACCOUNT_KEY) || "null"); } catch { return null; }
  },
  save(reply) {
    localStorage.setItem(TOKEN_KEY, reply.token);
    localStorage.setItem(ACCOUNT_KEY, JSON.stringify(reply.account));
    window.dispatchEvent(new Event("rampart:account"));
  },
  forget() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(ACCOUNT_KEY);
    window.dispatchEvent(new Event("rampart:account"));
  },
};

/** JSON request to the API; throws ApiError with the server's code (or "network"). */
export async function call(method, path, body, { auth = true } = {}) {
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (auth && session.token) headers.authorization = `Bearer ${session.token}`;
  let reply;
  try {
    reply = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("network", "", 0);
  }
  const text = await reply.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (!reply.ok) {
    const err = (data && data.error) || {};
    if (reply.status === 401 && auth && session.token && err.code !== "auth/bad_credentials") {
      session.forget();
    }
    throw new ApiError(err.code || `http/${reply.status}`, serverMessage(err, text), reply.status, err);
  }
  return data;
}

/** The server's reason in words: a field check reads "Password: at least 8 characters." */
function serverMessage(err, text) {
  const first = err.details && err.details[0];
  if (!first) return err.message || text;
  const field = (first.loc || []).filter((part) => part !== "body").join(".");
  const label = field ? field[0].toUpperCase() + field.slice(1).replace(/_/g, " ") : "";
  const msg = String(first.msg || "").replace(/^String should have/, "It needs").replace(/^Value error, /, "");
  return `${label ? `${label}: ` : ""}${msg}${/[.!]$/.test(msg) ? "" : "."}`;
}

/** A failed call (or any error) told to the player in a toast, in the words of errors.js. */
export const fail = (err) => toast(err instanceof ApiError ? err.message : String(err), "error");

export const get = (path, opts) => call("GET", path, undefined, opts);
export const post = (path, body = {}, opts) => call("POST", path, body, opts);

/** Make sure we hold a token; a visitor becomes a guest with the given name. */
export async function ensureGuest(name) {
  if (session.token) return session.account;
  const reply = await post("/api/accounts", { name }, { auth: false });
  session.save(reply);
  return reply.account;
}

/** NDJSON event log lines (redacted for the viewer while the match runs). */
export async function eventLog(matchId, { anonymous = false } = {}) {
  const headers = session.token && !anonymous ? { authorization: `Bearer ${session.token}` } : {};
  const reply = await fetch(`/api/matches/${matchId}/events`, { headers });
  if (!reply.ok) return [];
  const text = await reply.text();
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}
