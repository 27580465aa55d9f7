"""marquee/omdb.py: OMDb's field orders, texts and forms, the one copy site_gen, the edge and nginx use."""

from __future__ import annotations

import json

import orjson

from marquee import omdb
from marquee.settings import PROJECT_ROOT


def test_the_committed_schemas_are_the_modules():
    path = PROJECT_ROOT / "site_gen" / "schemas" / "marquee_omdb.json"
    assert json.loads(path.read_text()) == omdb.schemas()


def test_series_and_episode_fields_follow_omdb():
    assert omdb.SERIES_FIELDS[-3:] == ("Type", "totalSeasons", "Response")
    assert not {"DVD", "BoxOffice", "Production", "Website"} & set(omdb.SERIES_FIELDS)
    assert omdb.EPISODE_FIELDS.index("Season") == omdb.EPISODE_FIELDS.index("Released") + 1


def test_xml_escapes_and_names_attributes_as_omdb_does():
    xml = omdb.xml({"Title": 'Tom & "Jerry" <3', "imdbID": "tt0000001", "Ratings": [], "Response": "True"})
    assert xml == (
        '<?xml version="1.0" encoding="UTF-8"?><root response="True">'
        '<movie title="Tom &amp; &quot;Jerry&quot; &lt;3" imdbID="tt0000001"/></root>'
    )
    found = omdb.xml(
        {
            "Search": [{"Title": "A", "Year": "2001", "imdbID": "tt1", "Type": "movie", "Poster": "N/A"}],
            "totalResults": "1",
            "Response": "True",
        }
    )
    assert (
        '<root totalResults="1" response="True"><result title="A" year="2001" imdbID="tt1" type="movie" '
        'poster="N/A"/></root>' in found
    )
    assert omdb.xml(omdb.error_body("A <b>")).endswith('<root response="False"><error>A &lt;b&gt;</error></root>')


def test_render_json_jsonp_and_xml():
    stored = orjson.dumps({"Title": "A", "Response": "True"})
    assert omdb.render(stored, "json") == (stored, omdb.CONTENT_TYPES["json"])
    assert omdb.render(stored, "json", "cb") == (b"cb(" + stored + b")", omdb.CONTENT_TYPES["jsonp"])
    body, content_type = omdb.render(stored, "xml", "cb")  # XML is never wrapped
    assert body.startswith(b"<?xml") and content_type == omdb.CONTENT_TYPES["xml"]


def test_a_callback_cannot_carry_script():
    assert omdb.CALLBACK.fullmatch("jQuery123_456.done")
    assert not omdb.CALLBACK.fullmatch("alert(1)//") and not omdb.CALLBACK.fullmatch("")


def test_refusals_are_json_with_omdbs_texts():
    answers = omdb.refusal_answers()
    assert answers["no_key"] == {"status": 401, "body": '{"Response":"False","Error":"No API key provided."}'}
    assert answers["rate_limited"]["status"] == 429 and answers["plan_expired"]["status"] == 402


def test_a_node_puts_its_own_poster_base_in_and_keeps_the_rest():
    base = b"https://cdn.example/t/p/w342"
    stored = b'{"Title":"A","Poster":"http://build.host:8081/t/p/w342/abc.jpg","Ratings":[]}'
    assert (
        omdb.with_poster_base(stored, base)
        == b'{"Title":"A","Poster":"https://cdn.example/t/p/w342/abc.jpg","Ratings":[]}'
    )
    on_node = omdb.with_poster_base(stored, base)
    assert omdb.with_poster_base(on_node, base) is on_node  # already the node's: the same bytes, no copy
    for kept in (b'{"Title":"A","Poster":"N/A"}', b'{"Title":"Season 1","Episodes":[]}'):
        assert omdb.with_poster_base(kept, base) == kept
