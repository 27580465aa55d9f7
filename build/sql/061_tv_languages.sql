-- Translations of series, seasons, episodes and people (marquee_datasets.tv_translations) and the TV
-- genre names by language. A failed check stops the build: a duplicate would render two variants
-- for one URI, a dangling id a variant of nothing.
CREATE OR REPLACE TABLE series_translations AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/series_translations.parquet');
CREATE OR REPLACE TABLE season_translations AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/season_translations.parquet');
CREATE OR REPLACE TABLE episode_translations AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/episode_translations.parquet');
CREATE OR REPLACE TABLE person_translations AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/person_translations.parquet');
CREATE OR REPLACE TABLE tv_genre_translations AS SELECT * FROM read_parquet(getvariable('catalogue_dir') || '/tv_genre_translations.parquet');

-- TV genre names by language (genre id -> name), as genre_name_maps is for films.
CREATE OR REPLACE TABLE tv_genre_name_maps AS
SELECT l.iso_639_1, map_from_entries(list({'k': g.id, 'v': coalesce(gt.name, g.name)} ORDER BY g.id)) AS names
FROM (SELECT DISTINCT iso_639_1 FROM tv_genre_translations) l
CROSS JOIN tv_genres g
LEFT JOIN tv_genre_translations gt ON gt.genre_id = g.id AND gt.iso_639_1 = l.iso_639_1
GROUP BY l.iso_639_1;

CREATE OR REPLACE TEMP TABLE tv_language_checks AS
SELECT CASE WHEN count(*) > 0 THEN error('series_translations: ' || count(*) || ' duplicate (series_id, iso_639_1, iso_3166_1) rows') END
FROM (SELECT 1 FROM series_translations GROUP BY series_id, iso_639_1, iso_3166_1 HAVING count(*) > 1)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('season_translations: ' || count(*) || ' duplicate (season_id, iso_639_1, iso_3166_1) rows') END
FROM (SELECT 1 FROM season_translations GROUP BY season_id, iso_639_1, iso_3166_1 HAVING count(*) > 1)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('episode_translations: ' || count(*) || ' duplicate (episode_id, iso_639_1, iso_3166_1) rows') END
FROM (SELECT 1 FROM episode_translations GROUP BY episode_id, iso_639_1, iso_3166_1 HAVING count(*) > 1)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('person_translations: ' || count(*) || ' duplicate (person_id, iso_639_1, iso_3166_1) rows') END
FROM (SELECT 1 FROM person_translations GROUP BY person_id, iso_639_1, iso_3166_1 HAVING count(*) > 1)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('series_translations: unknown series ' || min(series_id)) END
FROM series_translations WHERE series_id NOT IN (SELECT id FROM tv_series)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('season_translations: unknown season ' || min(season_id)) END
FROM season_translations WHERE season_id NOT IN (SELECT id FROM tv_seasons)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('episode_translations: unknown episode ' || min(episode_id)) END
FROM episode_translations WHERE episode_id NOT IN (SELECT id FROM tv_episodes)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('person_translations: unknown person ' || min(person_id)) END
FROM person_translations WHERE person_id NOT IN (SELECT id FROM people)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('tv translations: unknown language ' || min(iso_639_1)) END
FROM (SELECT iso_639_1 FROM series_translations UNION ALL SELECT iso_639_1 FROM person_translations)
WHERE iso_639_1 NOT IN (SELECT iso_639_1 FROM languages);
