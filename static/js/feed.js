// The event feed of a table: lines told in the game's own words (its renderer's describeEvent),
// kept once each in version order, with the match's earlier lines from its event log.
import { eventLog } from "./api.js";

/**
 * The event feed of one table: lines from live patches, and after a (re)load the match's
 * earlier lines from its event log, each kept once, in version order.
 */
export class Chronicle {
  /** ``line(event)``: the event as {kind, text}, or null when it is not worth a line. */
  constructor(listEl, line) {
    this.list = listEl;
    this.line = line;
    this.items = [];
    this.lastVersion = 0;
  }

  /** A patch's events; a version already told is skipped. */
  addEvents(version, events) {
    if (version <= this.lastVersion) return;
    this.lastVersion = version;
    for (const event of events || []) {
      const item = this.line(event);
      if (item) this.items.push({ ...item, version });
    }
    this.render();
  }

  /** A line that is not an engine event (chat). */
  say(item) {
    this.items.push({ ...item, version: this.lastVersion, said: true });
    this.render();
  }

  /** Everything up to ``upto`` from the event log (redacted for us while the match runs). */
  async loadHistory(matchId, upto, { anonymous = false } = {}) {
    this.lastVersion = Math.max(this.lastVersion, upto);
    if (upto === 0) return;
    let lines;
    try { lines = await eventLog(matchId, { anonymous }); } catch { return; }
    const older = [];
    for (const line of lines) {
      if (!line.events || !line.version || line.version > upto) continue;
      for (const event of line.events) {
        const item = this.line(event);
        if (item) older.push({ ...item, version: line.version });
      }
    }
    this.items = [...older, ...this.items.filter((item) => item.said || item.version > upto)];
    this.render();
  }

  render() {
    if (this.items.length > 300) this.items.splice(0, this.items.length - 300);
    const shown = this.items.slice(-150);
    const row = (item) => {
      const li = document.createElement("li");
      li.className = `feed-${item.kind}`;
      li.textContent = item.text;
      return li;
    };
    // Only new lines are added (and animate in); a rewritten history redraws the list.
    const drawn = this.drawn || [];
    const appended = drawn.length <= shown.length && drawn.every((item, i) => shown[i] === item);
    if (appended) {
      this.list.append(...shown.slice(drawn.length).map((item) => {
        const li = row(item);
        li.classList.add("fresh");
        return li;
      }));
    }
    else this.list.replaceChildren(...shown.map(row));
    this.drawn = shown;
    this.list.scrollTop = this.list.scrollHeight;
  }
}
