-- Series for the search index: original name, translated and alternative names; `y` the first air
-- year (first_air_date_year), `r` that and every episode's air year (TMDB's `year` on search/tv);
-- the item of similar series (person_tv_items.sql), in the default language.
-- in_search_scope: the series an update exports (search_index.py).
WITH names AS (
    SELECT series_id AS id, name FROM series_translations WHERE name <> '' AND in_search_scope('tv', series_id)
    UNION ALL
    SELECT series_id, title FROM series_alternative_titles WHERE title <> '' AND in_search_scope('tv', series_id)
), grouped AS (
    SELECT id, list(name) AS names FROM names GROUP BY id
), aired AS (
    SELECT series_id AS id, list(DISTINCT 'r' || year) AS years
    FROM (SELECT series_id, coalesce(year(air_date), air_year) AS year FROM tv_episodes)
    WHERE year IS NOT NULL AND in_search_scope('tv', series_id) GROUP BY series_id
)
SELECT s.id, s.popularity,
       list_concat([s.original_name], CASE WHEN s.name <> s.original_name THEN [s.name] ELSE [] END,
                   coalesce(g.names, [])) AS names,
       list_concat(CASE WHEN s.year IS NULL THEN [] ELSE ['y' || s.year, 'r' || s.year] END,
                   coalesce(a.years, []), CASE WHEN s.adult THEN ['adult'] ELSE [] END,
                   CASE WHEN s.imdb_id LIKE 'tt%' THEN ['imdb'] ELSE [] END) AS filters,
       to_json(i.item)::VARCHAR AS item,
       NULL::VARCHAR[] AS known_for
-- the dates' years, else the years a source gave without dates (IMDb's)
FROM (SELECT *, coalesce(year(first_air_date), first_air_year) AS year FROM tv_series) s
JOIN (__ITEMS__) i ON i.id = s.id
LEFT JOIN grouped g ON g.id = s.id
LEFT JOIN aired a ON a.id = s.id
WHERE in_search_scope('tv', s.id)
