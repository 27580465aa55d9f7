"""What the search index's writer (site_gen/search_index.py) and its reader (edge/search_index.py)
must agree on: how names and queries become tokens, so a name is found by the words it was indexed
under, and how the index names its filter tokens and stored prefixes.

- Case and accents are folded: `Amélie` is `amelie`, `CAFÉ` is `cafe`, `Łódź` is `lodz`. Letters
  that do not decompose are mapped (ø, æ, œ, ł, đ, ð, þ, ß by casefold). Japanese kana keep their
  voicing marks (ガ is not カ): those marks change the word, not its accent.
- A word is a run of letters and digits; anything else separates, so `Spider-Man` is `spider man`,
  and word order and punctuation do not matter to a match.
- Han, kana and Hangul are written without spaces: each run of them is cut into overlapping pairs
  (`千と千尋` is `千と と千 千尋`), so any two adjacent characters of such a name are a token and
  find it; a run of one character is a token of its own.

Everything here is C-level string work (normalize, a regex, translate): the index folds millions of
names with it.
"""

from __future__ import annotations

import re
import unicodedata

# Combining marks of the Latin, Greek and Cyrillic accents (what NFKD splits off an accented letter);
# not U+3099/U+309A, kana's voicing marks.
_ACCENTS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
# fmt: off
_LETTERS = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
                          "ħ": "h", "ŧ": "t", "ŋ": "n", "ſ": "s"})
# fmt: on
_CJK = (
    "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0002fa1f"
)
_TOKENS = re.compile(f"([{_CJK}]+)|[^\\W_{_CJK}]+")
_CJK_CHAR = re.compile(f"[{_CJK}]")
MIN_FUZZY = 5  # a word this long or longer may be found with one typo


def fold(text: str) -> str:
    """`Amélie` -> `amelie`: lower case, no accents, Hangul and kana composed."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return unicodedata.normalize("NFC", _ACCENTS.sub("", decomposed)).translate(_LETTERS)


def is_cjk(token: str) -> bool:
    """Whether a token is a pair (or a lone character) of Han, kana or Hangul."""
    return _CJK_CHAR.match(token) is not None


def words(text: str) -> list[str]:
    """The tokens of a name or a query, in order (a CJK run as its pairs of characters)."""
    out: list[str] = []
    for match in _TOKENS.finditer(fold(text)):
        run = match.group(1)
        if run is None or len(run) == 1:
            out.append(match.group(0))
        else:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


def normalized(text: str) -> str:
    """The name as its tokens joined by spaces: two names are the same title when these are equal."""
    return " ".join(words(text))


# The index's postings (site_gen/search_index.py): a filter token is kept apart from the words by a
# mark no word has (marquee folds words to letters and digits), and a kind's stored prefixes of one to
# STORED_PREFIX characters are terms of their own.
FILTER_MARK = "¤"
PREFIX_MARK = "prefix:"
STORED_PREFIX = 3
