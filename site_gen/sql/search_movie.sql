-- Movies for the search index (site_gen/search_index.py): every name a film is found by (original,
-- each translation's title, each alternative title), the tokens filters match (`y2001` its primary
-- release year, `r2001` each year it was released in anywhere, `adult`), and its result item in the
-- default language: movie_list_results.sql's, the item of similar lists, so both show a film alike.
-- in_search_scope: the films an update exports (search_index.py).
WITH names AS (
    SELECT movie_id AS id, title AS name FROM movie_translations WHERE title <> '' AND in_search_scope('movie', movie_id)
    UNION ALL
    SELECT movie_id, title FROM movie_alternative_titles WHERE title <> '' AND in_search_scope('movie', movie_id)
), grouped AS (
    SELECT id, list(name) AS names FROM names GROUP BY id
), released AS (
    SELECT movie_id AS id, list(DISTINCT 'r' || year(release_date)) AS years
    FROM movie_release_dates WHERE release_date IS NOT NULL AND in_search_scope('movie', movie_id) GROUP BY movie_id
)
SELECT m.id, m.popularity,
       list_prepend(m.original_title, coalesce(g.names, [])) AS names,
       list_concat(CASE WHEN m.year IS NULL THEN [] ELSE ['y' || m.year, 'r' || m.year] END,
                   coalesce(r.years, []), CASE WHEN m.adult THEN ['adult'] ELSE [] END,
                   CASE WHEN m.imdb_id LIKE 'tt%' THEN ['imdb'] ELSE [] END) AS filters,
       to_json(i.item)::VARCHAR AS item,
       NULL::VARCHAR[] AS known_for
-- the date's year, else the year a source gave without a date (IMDb's)
FROM (SELECT *, coalesce(year(release_date), release_year) AS year FROM movies) m
JOIN (__ITEMS__) i ON i.id = m.id
LEFT JOIN grouped g ON g.id = m.id
LEFT JOIN released r ON r.id = m.id
WHERE in_search_scope('movie', m.id)
