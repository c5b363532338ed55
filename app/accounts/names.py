"""Player-chosen text (account names, castle names): normalised, visible, and compared by key.

A name is NFKC-normalised, trimmed, its inner whitespace collapsed to single spaces, and then
checked: no control, format, private-use, surrogate or unassigned characters (Unicode
categories Cc, Cf, Zl, Zp, Co, Cs, Cn: zero-width joiners and bidi overrides among them), no
character that draws nothing (Unicode's default-ignorable code points, such as the Mongolian
variation selectors U+180B-U+180F and the Khmer inherent vowels U+17B4-U+17B5, an invisible
stacker such as the Khmer coeng U+17D2 that does not join two Khmer letters, the Tifinagh joiner
U+2D7F: ``app.accounts.lookalikes`` says where these lists come from), no blank-looking
letters (the blank Braille cell), at least one letter, digit, punctuation mark or symbol, and
not starting with a combining mark. Castle names, and tournament and ladder names, follow
these rules.

An account name must also be written in one script (TR39's single-script test: Latin,
Cyrillic, Greek, Japanese as Han with Hiragana and Katakana, ...; digits, spaces and
punctuation go with any), so no name mixes a Cyrillic a into Latin "Ada". Two names are the
same name when their ``name_key`` (NFKC case folding) is equal: "Ada", "ADA" and its
full-width form are one name; and a name whose ``name_skeleton`` (the TR39 confusable
skeleton, in any case) equals another's looks like it, and counts as taken too: "Ada" in
Cyrillic letters, KATE in Greek capitals beside "Kate".
"""

from __future__ import annotations

import unicodedata

from app.accounts.lookalikes import invisible_at, lookalike_key, single_script
from app.errors import AppError

MAX_NAME_LENGTH = 24
MAX_KEY_LENGTH = 40  # the accounts.name_key column; case folding may lengthen a name
MAX_CASTLE_LENGTH = 40
MAX_TITLE_LENGTH = 80  # tournament and ladder names
# The accounts.name_skeleton column: a skeleton is longer than its name (a Hangul syllable
# decomposes into jamo); 24 characters stay under 170.
MAX_SKELETON_LENGTH = 200

# Control, format (ZWJ, ZWSP, LRO/RLO, ...), line and paragraph separators, private use,
# surrogates, unassigned.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
# Letters and symbols that draw nothing: a name of them looks empty or hides in another (the
# Hangul fillers and the combining grapheme joiner are default-ignorable as well).
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f")
# Variation selectors only pick a glyph style ("❤" and "❤️" are one name): dropped.
VARIATION_SELECTORS = frozenset(
    [chr(c) for c in range(0xFE00, 0xFE10)] + [chr(c) for c in range(0xE0100, 0xE01F0)]
)
VISIBLE_CLASSES = frozenset("LNPS")


class NameInvalid(AppError):
    """A name that breaks the rules; ``code`` is the caller's (``account/name_invalid``, ...)."""

    status = 422


def normalise(raw: str) -> str:
    """NFKC, variation selectors dropped, whitespace trimmed and collapsed; not yet checked."""
    text = unicodedata.normalize("NFKC", raw)
    text = "".join(ch for ch in text if ch not in VARIATION_SELECTORS)
    return " ".join(text.split())


def name_key(name: str) -> str:
    """The comparison key of a name: equal keys are the same name (case and width ignored)."""
    folded = unicodedata.normalize("NFKC", normalise(name).casefold())
    return unicodedata.normalize("NFKC", folded.casefold())


def name_skeleton(name: str) -> str:
    """The look-alike key of a name: names that look alike, in any case, share it."""
    return lookalike_key(normalise(name))


def visible_text(raw: str, *, max_length: int, code: str, what: str) -> str:
    """``raw`` normalised, or ``NameInvalid(code)`` with a message a player understands."""
    for ch in unicodedata.normalize("NFKC", raw):
        if unicodedata.category(ch) in REFUSED_CATEGORIES and ch not in "\t\n\r":
            raise NameInvalid(code, f"{what} cannot contain invisible or control characters")
    if any(ch in "\n\r" for ch in raw):
        raise NameInvalid(code, f"{what} must fit on one line")
    text = normalise(raw)
    if not text:
        raise NameInvalid(code, f"{what} needs at least one visible character")
    if len(text) > max_length:
        raise NameInvalid(code, f"{what} can be at most {max_length} characters long")
    if any(ch in BLANK_LOOKING for ch in text):
        raise NameInvalid(code, f"{what} cannot contain blank-looking characters")
    hidden = invisible_at(text)
    if hidden is not None:
        point = f"U+{ord(text[hidden]):04X}"
        raise NameInvalid(
            code, f"{what} cannot contain invisible characters ({point} draws nothing)"
        )
    if unicodedata.category(text[0]).startswith("M"):
        raise NameInvalid(code, f"{what} cannot start with an accent or other combining mark")
    if not any(unicodedata.category(ch)[0] in VISIBLE_CLASSES for ch in text):
        raise NameInvalid(code, f"{what} needs at least one letter, digit or symbol")
    return text


def player_name(raw: str) -> str:
    """An account name (guest or registered): 1-24 visible characters; ``account/name_invalid``."""
    name = visible_text(raw, max_length=MAX_NAME_LENGTH, code="account/name_invalid", what="A name")
    if not single_script(name):
        raise NameInvalid(
            "account/name_invalid",
            "A name must be written in one script (Latin, Cyrillic, Greek, ...),"
            " not letters of several mixed",
        )
    if len(name_key(name)) > MAX_KEY_LENGTH or len(name_skeleton(name)) > MAX_SKELETON_LENGTH:
        raise NameInvalid("account/name_invalid", "A name with these letters must be shorter")
    return name


def title(raw: str, *, code: str, what: str) -> str:
    """A tournament's or a ladder's name: the visible-text rules (scripts may mix), up to 80
    characters; ``code`` is the caller's (``tournament/bad_name``, ``ladder/bad_name``)."""
    return visible_text(raw, max_length=MAX_TITLE_LENGTH, code=code, what=what)


def castle_name(raw: str) -> str:
    """A castle name chosen in a lobby: the same rules, up to 40 characters;
    ``lobby/bad_castle_name``."""
    return visible_text(
        raw, max_length=MAX_CASTLE_LENGTH, code="lobby/bad_castle_name", what="A castle name"
    )
