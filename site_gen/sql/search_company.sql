-- Companies for the search index: their name and alternative names; ranked by the popularity of
-- the films and series they made.
WITH names AS (
    SELECT company_id AS id, list(name) AS names FROM company_alternative_names WHERE name <> '' GROUP BY company_id
), work AS (
    SELECT company_id AS id, sum(popularity) AS popularity FROM (
        SELECT mc.company_id, m.popularity FROM movie_companies mc JOIN movies m ON m.id = mc.movie_id
        UNION ALL
        SELECT sc.company_id, s.popularity FROM series_companies sc JOIN tv_series s ON s.id = sc.series_id
    ) GROUP BY company_id
)
SELECT c.id, coalesce(w.popularity, 0) AS popularity,
       list_prepend(c.name, coalesce(n.names, [])) AS names,
       []::VARCHAR[] AS filters,
       to_json({'id': c.id, 'logo_path': c.logo_path, 'name': c.name,
                'origin_country': coalesce(c.origin_country, '')})::VARCHAR AS item,
       NULL::VARCHAR[] AS known_for
FROM companies c
LEFT JOIN names n ON n.id = c.id
LEFT JOIN work w ON w.id = c.id
