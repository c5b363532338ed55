"""Accounts: the rules for player-chosen names, and the throttle on logins and registrations."""
