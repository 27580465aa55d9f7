"""The docs page on the API host, `/docs/` without a key: our OpenAPI reference (control/openapi.py,
the current release's /3/openapi.json) in Swagger UI, under a getting-started block with the two
commands and three curl lines for this node. Swagger UI comes from the swagger-ui-py package and
nginx serves its files (nothing is fetched from a CDN); "try it" takes a key the reader pastes in
Swagger UI's Authorize dialog. control/services.py writes the page beside nginx.conf when nginx
starts, so it names the node that serves it.
"""

from __future__ import annotations

import html
from pathlib import Path

import swagger_ui

from marquee.artefacts import OPENAPI_PATH
from marquee.settings import Settings

DOCS_PATH = "/docs/"
PAGE_NAME = "docs.html"  # in the run folder, beside nginx.conf
STATIC = Path(swagger_ui.__file__).resolve().parent / "static"  # Swagger UI's own files
COMMANDS = ("make run", "make test")


def curl_lines(api: str, key: str) -> list[str]:
    """What to try first with a key: a film, a search, the same through OMDb's door (`marquee serve`
    prints these with the demo key)."""
    return [
        f"curl -s '{api}/3/movie/2?api_key={key}'",
        f"curl -s -H 'Authorization: Bearer {key}' '{api}/3/search/movie?query=the'",
        f"curl -s '{api}/compat/?s=the&apikey={key}'",
    ]


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Marquee API reference</title>
<link rel="icon" href="{docs}static/favicon-32x32.png">
<link rel="stylesheet" href="{docs}static/swagger-ui.css">
<style>
body {{ margin: 0; font-family: sans-serif; }}
#start {{ max-width: 1460px; margin: 0 auto; padding: 20px 20px 0; }}
#start pre {{ background: #f4f4f4; padding: 10px; overflow-x: auto; }}
</style>
</head>
<body>
<section id="start">
<h1>Marquee</h1>
<p>TMDB's API v3 under <code>/3</code> and OMDb's at <code>/compat/</code>, on one key. A client switches
by its base address: <code>{api}</code>. The reference below is <a href="{openapi}">{openapi}</a>,
what this node's current release serves; paste a key under <b>Authorize</b> to try a call.</p>
<h2>Getting started</h2>
<pre>{commands}</pre>
<pre>{curls}</pre>
</section>
<div id="reference"></div>
<script src="{docs}static/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({{
  url: "{openapi}", dom_id: "#reference", deepLinking: true, docExpansion: "list", filter: true,
  tryItOutEnabled: true, displayRequestDuration: true
}});
</script>
</body>
</html>
"""


def page(settings: Settings) -> str:
    api = settings.api_base_url
    return PAGE.format(
        docs=DOCS_PATH,
        api=html.escape(api),
        openapi=OPENAPI_PATH,
        commands="\n".join(COMMANDS),
        curls=html.escape("\n".join(curl_lines(api, "$KEY"))),
    )
