"""Companies and networks: the macros their alternative names and logos share (site_gen/templates.py
lists /3/company/{company_id}/alternative_names, /images and the same of /3/network/{network_id};
the SQL is site_gen/sql/organisation_pages.sql)."""

from __future__ import annotations

import duckdb

from marquee.settings import Settings
from site_gen.documents import load_sql
from site_gen.templates import Preparation


def prepare(con: duckdb.DuckDBPyConnection, settings: Settings) -> None:
    con.execute(load_sql("organisation_pages.sql"))


# fmt: off
PREPARATIONS = (
    Preparation("organisations", prepare, makes=("organisations", "organisation_names", "organisation_logos"),
                sql=("organisation_pages.sql",)),
)
# fmt: on
