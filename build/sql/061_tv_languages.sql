-- Translations of series, seasons, episodes and people (marquee_datasets.tv_translations) and the TV
-- genre names by language. A failed check stops the build: a duplicate would render two variants
-- for one URI, a dangling id a variant of nothing.

-- TV genre names by language (genre id -> name), as genre_name_maps is for films.
CREATE OR REPLACE TABLE tv_genre_name_maps AS
SELECT l.iso_639_1, map_from_entries(list({'k': g.id, 'v': coalesce(gt.name, g.name)} ORDER BY g.id)) AS names
FROM (SELECT DISTINCT iso_639_1 FROM tv_genre_translations UNION SELECT 'en') l  -- genres' own names are English
CROSS JOIN tv_genres g
LEFT JOIN tv_genre_translations gt ON gt.genre_id = g.id AND gt.iso_639_1 = l.iso_639_1
GROUP BY l.iso_639_1;

-- Every translation row as (table, owner id, owner known?, language known?, language, country), so
-- that one query checks them all.
CREATE OR REPLACE TEMP TABLE tv_translation_keys AS
SELECT 'series_translations' AS source, series_id AS owner_id, series_id IN (SELECT id FROM tv_series) AS known,
       iso_639_1, iso_3166_1 FROM series_translations
UNION ALL SELECT 'season_translations', season_id, season_id IN (SELECT id FROM tv_seasons), iso_639_1, iso_3166_1
FROM season_translations
UNION ALL SELECT 'episode_translations', episode_id, episode_id IN (SELECT id FROM tv_episodes), iso_639_1, iso_3166_1
FROM episode_translations
UNION ALL SELECT 'person_translations', person_id, person_id IN (SELECT id FROM people), iso_639_1, iso_3166_1
FROM person_translations;

CREATE OR REPLACE TEMP TABLE tv_language_checks AS
SELECT CASE WHEN count(*) > 0 THEN error(min(source) || ': ' || count(*) || ' duplicate (id, iso_639_1, iso_3166_1) rows') END
FROM (SELECT source FROM tv_translation_keys GROUP BY source, owner_id, iso_639_1, iso_3166_1 HAVING count(*) > 1)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error(min(source) || ': unknown id ' || min(owner_id)) END
FROM tv_translation_keys WHERE NOT known
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error(min(source) || ': unknown language ' || min(iso_639_1)) END
FROM tv_translation_keys WHERE iso_639_1 NOT IN (SELECT iso_639_1 FROM languages);
