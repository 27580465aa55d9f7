-- What users contribute: reviews and public lists (`lists` itself is loaded as-is). Rows naming a title are keyed as the entity hashes
-- key rows that name their owner (site_gen/scope.py OWNER_KINDS: 'movie' a film, 'tv' a series), so a
-- new review re-renders its title's review pages only.
CREATE OR REPLACE TABLE reviews AS
SELECT media_type AS owner, media_id AS owner_id, * EXCLUDE (media_type, media_id)
FROM read_parquet(getvariable('catalogue_dir') || '/reviews.parquet');

CREATE OR REPLACE TABLE list_items AS
SELECT media_type AS owner, media_id AS owner_id, * EXCLUDE (media_type, media_id)
FROM read_parquet(getvariable('catalogue_dir') || '/list_items.parquet');

CREATE OR REPLACE TABLE tagged_images AS
SELECT media_type AS owner, media_id AS owner_id, * EXCLUDE (media_type, media_id)
FROM read_parquet(getvariable('catalogue_dir') || '/tagged_images.parquet');
