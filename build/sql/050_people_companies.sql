-- People and company detail tables (marquee_datasets.people_details), loaded as-is.
CREATE OR REPLACE TABLE person_details AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/person_details.parquet');
CREATE OR REPLACE TABLE person_images AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/person_images.parquet');
CREATE OR REPLACE TABLE company_alternative_names AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/company_alternative_names.parquet');
CREATE OR REPLACE TABLE company_images AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/company_images.parquet');

