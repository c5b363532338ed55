"""RFC 3339 date-times read exactly as the OpenAPI schema's ``date-time`` format defines them,
into instants in UTC, clamped to the years Python and the databases hold."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

# full-date "T" partial-time time-offset; "T" and "Z" in either case (RFC 3339 sec. 5.6).
RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))",
    re.ASCII,  # digits 0-9 only
)
EARLIEST = datetime.min.replace(tzinfo=UTC)
LATEST = datetime.max.replace(tzinfo=UTC)
DAY_S = 86_400
# Days from 0000-01-01 to 0004-01-01: a day of year 0 (a leap year, as 4 is) is counted from
# the same day of year 4, which Python's calendar holds.
YEAR0_SHIFT = 4 * 365 + 1


def _ordinal(year: int, month: int, day: int) -> int:
    """The proleptic Gregorian day number (0001-01-01 is 1; year 0's days are 0 and below);
    ValueError for a day its month does not have."""
    if year == 0:
        return date(4, month, day).toordinal() - YEAR0_SHIFT
    return date(year, month, day).toordinal()


def rfc3339_instant(text: str) -> datetime:
    """The instant ``text`` names, in UTC. ``ValueError`` unless it is an RFC 3339
    date-time: a valid calendar day, hours 00-23, minutes 00-59, seconds 00-59 or a leap
    second (``:60`` at 23:59 UTC), an offset ``Z`` or ``+hh:mm``. Every such text is taken:
    a leap second is read as the last microsecond before it, and an instant before year 1 or
    after year 9999 in UTC (``0001-01-01T00:00:00+02:03``) as the first or last one Python
    holds, which compares with every stored instant as the real one would."""
    match = RFC3339.fullmatch(text)
    if match is None:
        raise ValueError("an RFC 3339 date-time, such as 2026-01-31T12:00:00Z")
    year, month, day, hour, minute, second = (int(part) for part in match.groups()[:6])
    offset = 0
    if match[8] is None:
        offset_hours, offset_minutes = int(match[10]), int(match[11])
        if offset_hours > 23 or offset_minutes > 59:
            raise ValueError("an offset is -23:59 to +23:59")
        offset = (1 if match[9] == "+" else -1) * (offset_hours * 60 + offset_minutes)
    if hour > 23 or minute > 59 or second > 60:
        raise ValueError("a time of day is 00:00:00 to 23:59:59")
    micro = int((match[7][1:] + "00000")[:6]) if match[7] else 0
    if second == 60:
        if (hour * 60 + minute - offset) % (24 * 60) != 23 * 60 + 59:
            raise ValueError("a leap second comes at 23:59:60 UTC only")
        second, micro = 59, 999_999
    try:
        days = _ordinal(year, month, day) - 1
    except ValueError:
        raise ValueError("no such day") from None
    seconds = days * DAY_S + hour * 3600 + (minute - offset) * 60 + second
    if seconds < 0:
        return EARLIEST
    latest = (LATEST - EARLIEST) // timedelta(seconds=1)
    if seconds > latest:
        return LATEST
    return EARLIEST + timedelta(seconds=seconds, microseconds=micro)
