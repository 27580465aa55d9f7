-- /3/movie/{movie_id}/videos: the videos in the rendered language (TMDB filters by `language`),
-- newest first.
SELECT
    '/3/movie/' || m.id || '/videos' AS uri,
    encode(to_json({
        'id': m.id,
        'results': coalesce(v.results, [])
    })) AS body
FROM movies m
LEFT JOIN (
    SELECT movie_id,
           list({'iso_639_1': iso_639_1, 'iso_3166_1': iso_3166_1, 'name': name, 'key': "key",
                 'site': site, 'size': "size", 'type': "type", 'official': official,
                 'published_at': strftime(published_at, '%Y-%m-%dT%H:%M:%S.000Z'), 'id': id}
                ORDER BY published_at DESC, id) AS results
    FROM movie_videos
    WHERE iso_639_1 = getvariable('iso_639_1')
    GROUP BY movie_id
) v ON v.movie_id = m.id
