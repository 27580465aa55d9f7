"""Company family: /3/company/{company_id}, /alternative_names and /images, for every company.

Built in SQL (site_gen/sql/company_*.sql) from the companies table and the detail tables of
marquee_datasets.people_details.
"""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import Documents, from_sql

DETAILS = "/3/company/{company_id}"
ALTERNATIVE_NAMES = "/3/company/{company_id}/alternative_names"
IMAGES = "/3/company/{company_id}/images"


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    return [
        from_sql(con, DETAILS, "company_details.sql"),
        from_sql(con, ALTERNATIVE_NAMES, "company_alternative_names.sql"),
        from_sql(con, IMAGES, "company_images.sql"),
    ]
