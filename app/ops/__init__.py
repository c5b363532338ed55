"""Operating a Rampart server: backups, logs, moderation tools."""
