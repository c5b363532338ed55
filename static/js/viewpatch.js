// Match patches (README, "Match socket"): a whole view, or a diff of the view the client holds.

/**
 * applyPatch(held, message): what a connection holds after a ``welcome`` or ``patch``.
 * ``held`` is ``{version, view, legal, awaiting}`` (or null before the first welcome). A
 * message with ``view`` is whole: it replaces everything. Otherwise it is a diff for version
 * ``base``: ``diff`` changes the view (``applyDiff``), ``legal`` and ``awaiting`` are present
 * only when they changed. Returns the new holding (``held`` itself is not changed), or null
 * when the diff is for a version not held: then ask the server for a ``resync``.
 */
export function applyPatch(held, message) {
  if ("view" in message) {
    return {
      version: message.version,
      view: message.view,
      legal: message.legal || [],
      awaiting: message.awaiting || [],
    };
  }
  if (!held || !held.view || message.base !== held.version) return null;
  return {
    version: message.version,
    view: message.diff ? applyDiff(held.view, message.diff) : held.view,
    legal: "legal" in message ? message.legal : held.legal,
    awaiting: "awaiting" in message ? message.awaiting : held.awaiting,
  };
}

/**
 * applyDiff(view, diff): a new view. ``diff.del``: top-level keys removed; ``diff.set``:
 * top-level keys replaced whole; ``diff.sub``: per key, entries of the list (by index) or the
 * object replaced, one level down. The lists and objects touched are copied, never edited.
 */
export function applyDiff(view, diff) {
  const out = { ...view };
  for (const key of diff.del || []) delete out[key];
  for (const [key, value] of Object.entries(diff.set || {})) out[key] = value;
  for (const [key, entries] of Object.entries(diff.sub || {})) {
    const target = out[key];
    if (Array.isArray(target)) {
      const copy = target.slice();
      for (const [index, value] of Object.entries(entries)) copy[Number(index)] = value;
      out[key] = copy;
    } else {
      out[key] = { ...target, ...entries };
    }
  }
  return out;
}
