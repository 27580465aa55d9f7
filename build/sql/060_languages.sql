-- Translations beyond movie_translations, lookups the language variants share, and
-- consistency checks. A failed check stops the build through error(): a duplicate translation would
-- otherwise render two variants for one URI, a dangling id a variant of nothing.

-- Genre names by language as a map (genre id -> name); a language missing a genre keeps the
-- catalogue's (English) name. The renderers look names up per variant instead of joining per genre.
CREATE OR REPLACE TABLE genre_name_maps AS
SELECT l.iso_639_1, map_from_entries(list({'k': g.id, 'v': coalesce(gt.name, g.name)} ORDER BY g.id)) AS names
FROM (SELECT DISTINCT iso_639_1 FROM genre_translations UNION SELECT 'en') l  -- genres' own names are English
CROSS JOIN genres g
LEFT JOIN genre_translations gt ON gt.genre_id = g.id AND gt.iso_639_1 = l.iso_639_1
GROUP BY l.iso_639_1;

-- Kept as a table (not a bare SELECT) so that this script leaves no pending result behind.
CREATE OR REPLACE TEMP TABLE language_checks AS
SELECT CASE WHEN count(*) > 0 THEN error('movie_translations: ' || count(*) || ' duplicate (movie_id, iso_639_1, iso_3166_1) rows') END
FROM (SELECT 1 FROM movie_translations GROUP BY movie_id, iso_639_1, iso_3166_1 HAVING count(*) > 1)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('collection_translations: ' || count(*) || ' duplicate (collection_id, iso_639_1, iso_3166_1) rows') END
FROM (SELECT 1 FROM collection_translations GROUP BY collection_id, iso_639_1, iso_3166_1 HAVING count(*) > 1)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('genre_translations: ' || count(*) || ' duplicate (genre_id, iso_639_1) rows') END
FROM (SELECT 1 FROM genre_translations GROUP BY genre_id, iso_639_1 HAVING count(*) > 1)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('collection_translations: unknown collection ' || min(collection_id)) END
FROM collection_translations WHERE collection_id NOT IN (SELECT id FROM collections)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('genre_translations: unknown genre ' || min(genre_id)) END
FROM genre_translations WHERE genre_id NOT IN (SELECT id FROM genres)
UNION ALL
SELECT CASE WHEN count(*) > 0 THEN error('translations: unknown language ' || min(iso_639_1)) END
FROM (SELECT iso_639_1 FROM movie_translations UNION ALL SELECT iso_639_1 FROM collection_translations)
WHERE iso_639_1 NOT IN (SELECT iso_639_1 FROM languages);
