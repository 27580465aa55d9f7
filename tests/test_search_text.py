"""marquee/search_text.py: how names and queries become tokens (the same rule on both sides)."""

from __future__ import annotations

import pytest

from marquee import search_text


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("Amélie", ["amelie"]),
        ("CAFÉ", ["cafe"]),
        ("Spider-Man: No Way Home", ["spider", "man", "no", "way", "home"]),
        ("L'Été indien", ["l", "ete", "indien"]),
        ("Łódź, Ærø, Œuvre, Straße", ["lodz", "aero", "oeuvre", "strasse"]),
        ("Москва слезам не верит", ["москва", "слезам", "не", "верит"]),
        ("Ёлки", ["елки"]),  # ё is е with a diaeresis
        ("千と千尋の神隠し", ["千と", "と千", "千尋", "尋の", "の神", "神隠", "隠し"]),
        ("影", ["影"]),
        ("기생충", ["기생", "생충"]),
        ("ガンダム", ["ガン", "ンダ", "ダム"]),  # voicing marks stay: ダ is not タ
        ("ﾊﾟﾝ", ["パン"]),  # half-width kana are the full-width ones
        ("Godzilla vs. コング 2", ["godzilla", "vs", "コン", "ング", "2"]),
        ("  ...  ", []),
    ],
)
def test_tokens(text, tokens):
    assert search_text.words(text) == tokens


def test_cjk_tokens_are_told_apart():
    assert search_text.is_cjk("千尋") and search_text.is_cjk("기생") and not search_text.is_cjk("matrix")
    assert not search_text.is_cjk("москва")


def test_normalized_names_compare_equal_across_case_accents_and_punctuation():
    assert search_text.normalized("Amélie!") == search_text.normalized("amelie") == "amelie"
    assert search_text.normalized("Spider-Man") == search_text.normalized("spider man")
