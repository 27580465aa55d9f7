-- Movie extras (marquee_datasets.movie_extras), loaded as-is. 031 holds the mood rules, 032 derives
-- moods, similar/recommended movies and keyword pages from these and the movie tables.
CREATE OR REPLACE TABLE keywords AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/keywords.parquet');
CREATE OR REPLACE TABLE movie_keywords AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_keywords.parquet');
CREATE OR REPLACE TABLE movie_videos AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_videos.parquet');
CREATE OR REPLACE TABLE certifications AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/certifications.parquet');
CREATE OR REPLACE TABLE movie_release_dates AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_release_dates.parquet');
CREATE OR REPLACE TABLE movie_alternative_titles AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_alternative_titles.parquet');
CREATE OR REPLACE TABLE movie_external_ids AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_external_ids.parquet');
CREATE OR REPLACE TABLE movie_ratings AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_ratings.parquet');
CREATE OR REPLACE TABLE watch_providers AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/watch_providers.parquet');
CREATE OR REPLACE TABLE watch_provider_regions AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/watch_provider_regions.parquet');
CREATE OR REPLACE TABLE movie_watch_providers AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_watch_providers.parquet');
CREATE OR REPLACE TABLE soundtracks AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/soundtracks.parquet');
CREATE OR REPLACE TABLE soundtrack_tracks AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/soundtrack_tracks.parquet');
CREATE OR REPLACE TABLE movie_images AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_images.parquet');
