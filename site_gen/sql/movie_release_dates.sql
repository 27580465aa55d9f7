-- /3/movie/{movie_id}/release_dates: countries by code, each country's releases by date then type.
WITH per_country AS (
    SELECT movie_id, iso_3166_1,
           ordered_values(list({'k': release_date, 't': "type",
                                'v': {'certification': certification, 'descriptors': descriptors,
                                      'iso_639_1': iso_639_1,
                 'note': note, 'release_date': strftime(release_date, '%Y-%m-%dT%H:%M:%S.000Z'),
                 'type': "type"}})) AS release_dates
    FROM movie_release_dates WHERE in_scope('movie', movie_id) GROUP BY movie_id, iso_3166_1
)
SELECT
    '/3/movie/' || m.id || '/release_dates' AS uri,
    ({
        'id': m.id,
        'results': coalesce(r.results, [])
    }) AS doc
FROM movies m
LEFT JOIN (
    SELECT movie_id, list_sort(list({'iso_3166_1': iso_3166_1, 'release_dates': release_dates})) AS results
    FROM per_country GROUP BY movie_id
) r ON r.movie_id = m.id
WHERE in_scope('movie', m.id)
