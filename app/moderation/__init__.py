"""Moderation: admins, bans, mutes, voided and aborted matches, reports, audit."""
