-- Load every Parquet table of the catalogue as-is. getvariable('catalogue_dir') is set by
-- marquee_build.catalogue before this runs (and checked to hold every file named here).
CREATE OR REPLACE TABLE movies AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movies.parquet');
CREATE OR REPLACE TABLE movie_translations AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_translations.parquet');
CREATE OR REPLACE TABLE genres AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/genres.parquet');
CREATE OR REPLACE TABLE movie_genres AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_genres.parquet');
CREATE OR REPLACE TABLE collections AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/collections.parquet');
CREATE OR REPLACE TABLE companies AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/companies.parquet');
CREATE OR REPLACE TABLE movie_companies AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_companies.parquet');
CREATE OR REPLACE TABLE countries AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/countries.parquet');
CREATE OR REPLACE TABLE movie_countries AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_countries.parquet');
CREATE OR REPLACE TABLE languages AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/languages.parquet');
CREATE OR REPLACE TABLE movie_spoken_languages AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/movie_spoken_languages.parquet');
CREATE OR REPLACE TABLE people AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/people.parquet');
-- "cast" is an SQL keyword; quote it everywhere.
CREATE OR REPLACE TABLE "cast" AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/cast.parquet');
CREATE OR REPLACE TABLE crew AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/crew.parquet');
