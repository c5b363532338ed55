"""Operating a Rampart server: metrics, logs, backups, graceful shutdown."""
