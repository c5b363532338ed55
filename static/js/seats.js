// How a seat is named wherever it shows: its player (a bot by kind and level, a bot account
// by its name and "Bot") with the castle name beside it, "Ada (Yarrowdale)",
// "Bot · hard (Ironmere)" or "Robo · Bot (Thornwall)".

const BOT_NAMES = { heuristic: "Bot", random: "Random bot", practice: "Practice bot" };

/** A bot's name with its level: "Bot · hard". */
export function botName(kind, level) {
  const base = BOT_NAMES[kind] || `${kind} bot`;
  return kind === "practice" ? base : `${base} · ${level || "normal"}`;
}

/** A bot account's name, labelled as a bot: "Robo · Bot". */
export function botAccountName(name) {
  return `${name} · Bot`;
}

/** A seat as the match socket's welcome tells it ({name, castle, bot: {kind, level},
 * bot_account}). */
export function playerLabel(player, fallback) {
  if (!player) return fallback || "";
  const account = player.bot_account && player.name ? botAccountName(player.name) : player.name;
  const who = player.bot ? botName(player.bot.kind, player.bot.level) : account;
  const castle = player.castle;
  if (!who) return castle || fallback || "";
  return castle && castle !== who ? `${who} (${castle})` : who;
}

/** Every seat's label from a welcome: its ``players``, else its castle ``names``. */
export function seatLabels(message) {
  const names = message.names || [];
  if (!message.players) return names;
  return message.players.map((player, seat) => playerLabel(player, names[seat]));
}

/** A seat of the REST match record ({name: castle, player, bot_account, bot: kind,
 * difficulty}). */
export function recordSeatLabel(seat) {
  return playerLabel({
    name: seat.player,
    bot_account: seat.bot_account,
    castle: seat.name,
    bot: seat.bot ? { kind: seat.bot, level: seat.difficulty } : null,
  }, seat.name);
}
