"""/3/credit/{credit_id}: a credit, answered by the edge from the release's credit index
(site_gen/credit_index.py) rather than by nginx from a document per credit, which was a fifth of
the pack's rows for a path clients rarely call.

The answer is the one the document gave: edge/assemble.py reads `3/credit/{id}.json` through
OpenPacks, which rebuilds it from the index (edge/credit_index.py), and takes it from there as it
took the document when the request had parameters (`?language=` localises `media` from the title's
own document, a page past the first is 404, append_to_response names nothing on a credit). Its
location passes the same gate as every /3 path, and its answers carry the document's ETag (the MD5
of the body) and answer If-None-Match with a 304, as nginx did for the document.
"""

from __future__ import annotations

from edge.routes import append
from edge.routes.route import Route

ROUTES = [Route("credit", r"^/3/credit/[^/]+$", append.assembled, etag=True)]
