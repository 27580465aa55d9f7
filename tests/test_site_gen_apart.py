"""site_gen/apart.py: work run in a spawned process, its answer or its error, and its environment."""

from __future__ import annotations

import os

import pytest

from site_gen.apart import SPAWNED_ENVIRONMENT, beside

OPTION = "MIMALLOC_PURGE_DELAY"


def test_a_spawned_process_is_given_the_allocator_setting_and_the_build_keeps_its_own(monkeypatch):
    monkeypatch.delenv(OPTION, raising=False)
    with beside(os.getenv, OPTION) as answer:
        assert answer() == SPAWNED_ENVIRONMENT[OPTION]
    assert OPTION not in os.environ  # added for the spawn only
    with beside(os.getenv, OPTION, apart=False) as answer:
        assert answer() is None  # work kept in the build's process runs with the build's allocator


def test_an_operators_own_setting_wins(monkeypatch):
    monkeypatch.setenv(OPTION, "5")
    with beside(os.getenv, OPTION) as answer:
        assert answer() == "5"
    assert os.environ[OPTION] == "5"


def test_an_error_apart_is_raised_in_the_build_with_where_it_happened():
    with pytest.raises(ValueError) as raised, beside(int, "not a number") as answer:
        answer()
    assert any("in the process apart" in note for note in raised.value.__notes__)


@pytest.mark.parametrize("apart", [True, False])
def test_a_second_call_gives_the_same_answer_without_running_the_work_again(apart, tmp_path):
    # The build waits for the search index in one thread and takes its summary in another.
    marks = tmp_path / "marks"
    with beside(_mark, marks, apart=apart) as answer:
        assert answer() == answer() == 1
    assert marks.read_text() == "x"


@pytest.mark.parametrize("apart", [True, False])
def test_a_second_call_raises_the_same_error(apart):
    with beside(int, "not a number", apart=apart) as answer:
        with pytest.raises(ValueError) as first:
            answer()
        with pytest.raises(ValueError) as second:
            answer()
    assert first.value is second.value


def _mark(path):
    """Append a mark to `path`; how many marks it holds now."""
    with open(path, "a") as marks:
        marks.write("x")
    return len(path.read_text())
