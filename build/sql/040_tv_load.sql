-- TV tables (marquee_datasets.tv), loaded as-is. 041_tv_normalise.sql derives the per-series lists.
CREATE OR REPLACE TABLE tv_series AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/tv_series.parquet');
CREATE OR REPLACE TABLE tv_genres AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/tv_genres.parquet');
CREATE OR REPLACE TABLE series_genres AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_genres.parquet');
CREATE OR REPLACE TABLE networks AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/networks.parquet');
CREATE OR REPLACE TABLE series_networks AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_networks.parquet');
CREATE OR REPLACE TABLE network_alternative_names AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/network_alternative_names.parquet');
CREATE OR REPLACE TABLE network_images AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/network_images.parquet');
CREATE OR REPLACE TABLE series_companies AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_companies.parquet');
CREATE OR REPLACE TABLE tv_seasons AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/tv_seasons.parquet');
CREATE OR REPLACE TABLE tv_episodes AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/tv_episodes.parquet');
CREATE OR REPLACE TABLE created_by AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/created_by.parquet');
CREATE OR REPLACE TABLE series_cast AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_cast.parquet');
CREATE OR REPLACE TABLE series_crew AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_crew.parquet');
CREATE OR REPLACE TABLE episode_crew AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/episode_crew.parquet');
CREATE OR REPLACE TABLE episode_guest_stars AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/episode_guest_stars.parquet');
CREATE OR REPLACE TABLE series_content_ratings AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_content_ratings.parquet');
CREATE OR REPLACE TABLE series_alternative_titles AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_alternative_titles.parquet');
CREATE OR REPLACE TABLE tv_keywords AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/tv_keywords.parquet');
CREATE OR REPLACE TABLE series_keywords AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_keywords.parquet');
CREATE OR REPLACE TABLE tv_videos AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/tv_videos.parquet');
CREATE OR REPLACE TABLE series_watch_providers AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_watch_providers.parquet');
-- Image lists (marquee_datasets.tv_images), collections' included.
CREATE OR REPLACE TABLE series_images AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_images.parquet');
CREATE OR REPLACE TABLE season_images AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/season_images.parquet');
CREATE OR REPLACE TABLE episode_images AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/episode_images.parquet');
CREATE OR REPLACE TABLE collection_images AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/collection_images.parquet');
