"""append_to_response, pages, image and video filters and title lists in a language: every /3
request nginx cannot answer from one document (edge/assemble.py does the work)."""

from __future__ import annotations

from edge.assemble import assemble
from edge.content import Query
from edge.routes.route import Context, Route


def answer(context: Context, path: str, params: dict[str, str]) -> bytes:
    query = Query(
        path=path,
        language=params.get("language"),
        fallback_language=params.get("fallback_language"),
        append_to_response=params.get("append_to_response"),
        page=params.get("page"),
        include_image_language=params.get("include_image_language"),
        include_video_language=params.get("include_video_language"),
    )
    return assemble(context.root, query, context.languages, context.cache)


# No location: nginx's /3/ location hands these over (its $mq_dynamic map and the Lua splice).
ROUTES = [Route("append", r"^/3/", answer, location=False)]
