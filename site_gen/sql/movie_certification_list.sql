-- /3/certification/movie/list: every country's rating system, countries and entries in TMDB's order.
WITH per_country AS (
    SELECT iso_3166_1, min(position) AS first,
           list({'certification': certification, 'meaning': meaning, 'order': "order"} ORDER BY position) AS certs
    FROM certifications GROUP BY iso_3166_1
)
SELECT
    '/3/certification/movie/list' AS uri,
    ({
        'certifications': map_from_entries(coalesce(list({'key': iso_3166_1, 'value': certs} ORDER BY first), []))
    }) AS doc
FROM per_country
