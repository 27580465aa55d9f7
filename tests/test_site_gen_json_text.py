"""site_gen/json_text.py: a value's JSON text with its JSON-typed parts pasted, the bytes to_json writes."""

from pathlib import Path

import duckdb
import pytest

from marquee.packs import Pack
from site_gen.json_text import has_json, json_text
from site_gen.release import render_release

# Values where pasting could go wrong: a JSON member null or an SQL NULL, a NULL list, a list with a
# NULL element, an empty list, a NULL struct inside, keys to quote, plain runs before and after.
CASES = [
    """{'id': 1, 'cast': '[{"a":1},{"b":"x"}]'::JSON, 'crew': NULL::JSON, 'name': 'it''s "q"'}""",
    """{'cast': '[]'::JSON, 'order': 2.5}""",
    """{'id': 7, 'episodes': [{'n': 1, 'crew': '[1]'::JSON}, NULL, {'n': NULL, 'crew': NULL::JSON}]}""",
    """{'id': 7, 'episodes': NULL::STRUCT(n INTEGER, crew JSON)[]}""",
    """{'id': 7, 'episodes': []::STRUCT(n INTEGER, crew JSON)[]}""",
    """{'inner': {'x': '{"k":true}'::JSON, 'y': NULL::VARCHAR}, 'none': NULL::STRUCT(z JSON), 'say "hi"': 1}""",
    """{'results': ['{"a":1}'::JSON, NULL::JSON, 'null'::JSON]}""",
    """{'id': 3, 'plain': [1, 2], 'title': 'no JSON at all'}""",
    """{'fixed': [1, 2]::INTEGER[2], 'pair': ['1'::JSON, NULL::JSON]::JSON[2], 'cast': '[]'::JSON}""",
    """{'seasons': [{'eps': [{'crew': '[2]'::JSON}, NULL]}, {'eps': NULL}], 'grid': [['1'::JSON], NULL, []]}""",
]


@pytest.mark.parametrize("value", CASES)
def test_json_text_writes_what_to_json_writes(value: str) -> None:
    con = duckdb.connect()
    sql_type = con.sql(f"SELECT {value} AS v").types[0]
    rendered, expected = con.execute(
        f"SELECT {json_text('v', sql_type)}, to_json(v)::VARCHAR FROM (SELECT {value} AS v)"
    ).fetchall()[0]
    assert rendered == expected
    assert ("to_json(v)" not in json_text("v", sql_type)) == has_json(sql_type)  # pasted only where JSON is


def test_a_release_rendered_with_to_json_whole_has_the_same_documents(
    release_settings, catalogue_dir: Path, built_pack: Path, tmp_path: Path, monkeypatch
) -> None:
    """Every document of the session's build (JSON pasted) equals the one to_json writes of the
    whole value, byte for byte: composites (credits, seasons, similar lists) and plain ones alike."""
    monkeypatch.setattr("site_gen.documents.json_text", lambda expr, sql_type: f"to_json({expr})::VARCHAR")
    render_release(release_settings, catalogue_dir, tmp_path / "whole", echo=None)
    with Pack(built_pack) as pasted, Pack(tmp_path / "whole") as whole:
        expected = list(whole.rows())
        assert len(expected) > 10_000 and list(pasted.rows()) == expected
