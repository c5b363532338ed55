"""Moderation (issue 23): admins, bans, mutes, voided and aborted matches, reports, audit."""
