-- /3/movie/{movie_id}/alternative_titles: every alternative title, in catalogue order.
SELECT
    '/3/movie/' || m.id || '/alternative_titles' AS uri,
    ({
        'id': m.id,
        'titles': coalesce(a.titles, [])
    }) AS doc
FROM movies m
LEFT JOIN (
    SELECT movie_id, ordered_values(list({'k': ord,
                                          'v': {'iso_3166_1': iso_3166_1, 'title': title,
                                                'type': "type"}})) AS titles
    FROM movie_alternative_titles WHERE in_scope('movie', movie_id) GROUP BY movie_id
) a ON a.movie_id = m.id
WHERE in_scope('movie', m.id)
