"""Detail tables for people and companies that the core generator leaves out.

Owns `person_details` (homepage and the external ids of /3/person/{id}/external_ids),
`person_images` (the profiles of /3/person/{id}/images; the first one is the person's
profile_path), `company_alternative_names` and `company_images` (logos; the first one is the
company's logo_path). Every table is derived from the already generated `people` and `companies`
tables with its own random streams, so adding these leaves every other table unchanged.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from marquee_datasets import vocab
from marquee_datasets.columns import (
    cat,
    group_ranks,
    hex_ids,
    image_paths,
    irregular_ids,
    null_where,
    pick,
    rng_for,
    weighted_choice,
)

TABLES: tuple[str, ...] = ("person_details", "person_images", "company_alternative_names", "company_images")
# Original sizes TMDB reports for profile photos (2:3); the placeholder files are smaller thumbnails.
_PROFILE_WIDTHS = (400, 500, 600, 800, 1000, 1200, 1400, 2000)
# Counter offset for image ids so they never share a counter with credit ids (same hex_ids scheme).
_IMAGE_ID_COUNTER = 1 << 40


def detail_tables(people: pa.Table, companies: pa.Table, seed: int) -> dict[str, pa.Table]:
    """The four tables of TABLES for the given people and companies tables."""
    return {
        "person_details": _person_details(people, seed),
        "person_images": _person_images(people, seed),
        **_company_tables(companies, seed),
    }


def _slug(names: pa.Array) -> pa.Array:
    """'Anna K. Smith' -> 'annaksmith' (handles on social sites)."""
    return pc.replace_substring_regex(pc.utf8_lower(names), r"[^a-z0-9]+", "")


def _person_details(people: pa.Table, seed: int) -> pa.Table:
    rng = rng_for(seed, "person_details")
    n = people.num_rows
    ids = people.column("id").to_numpy()
    names = people.column("name").combine_chunks()
    slug = _slug(names)
    # Social handles are common for actors of the last decades, rare otherwise (TMDB sends null).
    camel = pc.replace_substring_regex(names, r"[^A-Za-z0-9]+", "")
    underscored = pc.replace_substring_regex(pc.utf8_lower(names), r"[^a-z0-9]+", "_")
    mid_chars = pick(list("0123456789bcdfghjklmnpqrstvwxyz"), rng.integers(0, 1 << 30, n))
    freebase_mid = cat("/m/0", pc.utf8_lpad(pa.array(rng.integers(0, 46656, n)).cast(pa.string()), 5, "0"), mid_chars)
    has_freebase = rng.random(n) < 0.3
    return pa.table(
        {
            "person_id": ids,
            "homepage": null_where(cat("https://www.", slug, ".com/"), rng.random(n) >= 0.05),
            "freebase_mid": null_where(freebase_mid, ~has_freebase),
            "freebase_id": null_where(cat("/en/", underscored), ~(has_freebase & (rng.random(n) < 0.7))),
            "tvrage_id": pa.array(
                rng.permutation(irregular_ids(rng, n, 1000, 40)), pa.int64(), mask=rng.random(n) >= 0.25
            ),
            "wikidata_id": null_where(
                cat("Q", pa.array(rng.permutation(irregular_ids(rng, n, 1500, 900))).cast(pa.string())),
                rng.random(n) >= 0.75,
            ),
            "facebook_id": null_where(camel, rng.random(n) >= 0.1),
            "instagram_id": null_where(slug, rng.random(n) >= 0.2),
            "tiktok_id": null_where(slug, rng.random(n) >= 0.05),
            "twitter_id": null_where(slug, rng.random(n) >= 0.15),
            "youtube_id": null_where(camel, rng.random(n) >= 0.02),
        }
    )


def _person_images(people: pa.Table, seed: int) -> pa.Table:
    rng = rng_for(seed, "person_images")
    ids = people.column("id").to_numpy()
    profile = people.column("profile_path").combine_chunks()
    has_profile = ~np.asarray(profile.is_null())
    # Only people with a profile photo have images; the profile_path is always the first (top voted).
    count = np.where(has_profile, 1 + weighted_choice(rng, [55, 25, 12, 8], len(ids)), 0)
    owner = np.repeat(np.arange(len(ids)), count)
    ord_ = group_ranks(owner)
    rows = len(owner)
    extra_paths = image_paths(ids[owner] * 8 + ord_, "person-profile-extra", seed, ".jpg")
    file_path = pc.if_else(pa.array(ord_ == 0), profile.take(pa.array(owner)), extra_paths)
    width = np.asarray(_PROFILE_WIDTHS)[rng.integers(0, len(_PROFILE_WIDTHS), rows)]
    height = np.round(width * 1.5).astype(np.int64)
    return pa.table(
        {
            "person_id": ids[owner],
            "file_path": file_path,
            "width": width.astype(np.int64),
            "height": height,
            "aspect_ratio": np.round(width / height, 3),
            # Strictly decreasing per person (gap >= 0.01), so ord is also TMDB's vote order.
            "vote_average": np.round(5.5 - 0.1 * ord_ - 0.09 * rng.random(rows), 3),
            "vote_count": rng.integers(1, 60, rows).astype(np.int64),
            "ord": ord_.astype(np.int64),
        }
    )


def _company_tables(companies: pa.Table, seed: int) -> dict[str, pa.Table]:
    names, logos = organisation_tables("company", companies, seed, _IMAGE_ID_COUNTER)
    return {"company_alternative_names": names, "company_images": logos}


def organisation_tables(
    kind: str, organisations: pa.Table, seed: int, first_image_id: int
) -> tuple[pa.Table, pa.Table]:
    """Alternative names and logos of companies or networks (`kind`; their tables key them by
    `{kind}_id`): a name or three more for half of them (legal suffixes, the short name upper-cased),
    and for each with a logo_path that logo first, then up to two more (`first_image_id` numbers their
    ids apart from other images')."""
    rng = rng_for(seed, f"{kind}_details")
    ids = organisations.column("id").to_numpy()
    n = len(ids)
    names = organisations.column("name").combine_chunks()
    suffixes = "|".join(s.replace(" ", r"\s") for s in vocab.COMPANY_SUFFIXES)
    short = pc.replace_substring_regex(names, rf"\s({suffixes})$", "")

    alt_count = weighted_choice(rng, [50, 30, 15, 5], n)
    alt_owner = np.repeat(np.arange(n), alt_count)
    alt_rank = group_ranks(alt_owner)
    taken = pa.array(alt_owner)
    variant = pc.choose(
        pa.array(alt_rank.astype(np.int8)),
        cat(names.take(taken), " Inc."),
        pc.utf8_upper(short.take(taken)),
        cat(short.take(taken), " LLC"),
    )
    alternative_names = pa.table(
        {
            f"{kind}_id": ids[alt_owner],
            "name": variant,
            # TMDB's type is free text and almost always empty.
            "type": pc.if_else(pa.array(rng.random(len(alt_owner)) < 0.1), "Legal name", ""),
            "ord": alt_rank.astype(np.int64),
        }
    )

    logo = organisations.column("logo_path").combine_chunks()
    has_logo = ~np.asarray(logo.is_null())
    count = np.where(has_logo, 1 + weighted_choice(rng, [60, 30, 10], n), 0)
    owner = np.repeat(np.arange(n), count)
    ord_ = group_ranks(owner)
    rows = len(owner)
    extra_paths = image_paths(ids[owner] * 8 + ord_, f"{kind}-logo-extra", seed, ".png")
    width = rng.integers(200, 1200, rows)
    height = np.maximum(1, np.round(width / rng.uniform(0.8, 4.0, rows))).astype(np.int64)
    images = pa.table(
        {
            f"{kind}_id": ids[owner],
            "id": hex_ids(
                np.arange(first_image_id, first_image_id + rows, dtype=np.uint64),
                rng.integers(0x4B3D3B00, 0x65900000, rows),
                seed,
            ),
            "file_path": pc.if_else(pa.array(ord_ == 0), logo.take(pa.array(owner)), extra_paths),
            "file_type": pick((".png", ".svg"), (rng.random(rows) < 0.4).astype(np.int64)),
            "width": width.astype(np.int64),
            "height": height,
            "aspect_ratio": np.round(width / height, 3),
            "vote_average": np.round(5.4 - 0.1 * ord_ - 0.09 * rng.random(rows), 3),
            "vote_count": rng.integers(1, 10, rows).astype(np.int64),
            "ord": ord_.astype(np.int64),
        }
    )
    return alternative_names, images
