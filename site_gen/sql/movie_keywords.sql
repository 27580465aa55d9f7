-- /3/movie/{movie_id}/keywords: the film's keywords in catalogue order.
SELECT
    '/3/movie/' || m.id || '/keywords' AS uri,
    ({
        'id': m.id,
        'keywords': coalesce(k.keywords, [])
    }) AS doc
FROM movies m
LEFT JOIN (
    SELECT mk.movie_id, ordered_values(list({'k': mk.ord,
                                             'v': {'id': k.id,
                                                   'name': k.name}})) AS keywords
    FROM movie_keywords mk JOIN keywords k ON k.id = mk.keyword_id
    WHERE in_scope('movie', mk.movie_id)
    GROUP BY mk.movie_id
) k ON k.movie_id = m.id
WHERE in_scope('movie', m.id)
