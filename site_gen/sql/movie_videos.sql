-- /3/movie/{movie_id}/videos, newest first, in every language variant: TMDB filters videos by
-- `language`, so the default document holds the default language's videos, '.xx-YY' the videos in
-- that served language (where the film has any), and '.und' none at all (a language without videos;
-- dropped where it equals the default). The edge merges variants for include_video_language.
WITH lists AS (
    SELECT movie_id, iso_639_1,
           ordered_values(list({'k1': -epoch_us(published_at), 'k2': id,
                                'v': {'iso_639_1': iso_639_1, 'iso_3166_1': iso_3166_1, 'name': name,
                                      'key': "key",
                 'site': site, 'size': "size", 'type': "type", 'official': official,
                 'published_at': strftime(published_at, '%Y-%m-%dT%H:%M:%S.000Z'), 'id': id}})) AS results
    FROM movie_videos
    WHERE in_scope('movie', movie_id)
    GROUP BY movie_id, iso_639_1
),
variants AS (
    SELECT m.id AS movie_id, v.suffix, v.iso_639_1
    FROM movies m JOIN render_variants v ON v.kind IN ('default', 'und')
    WHERE in_scope('movie', m.id)
    UNION ALL
    SELECT l.movie_id, v.suffix, v.iso_639_1
    FROM lists l JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = l.iso_639_1
)
SELECT
    '/3/movie/' || x.movie_id || '/videos' || x.suffix AS uri,
    ({
        'id': x.movie_id,
        'results': coalesce(l.results, [])
    }) AS doc
FROM variants x
LEFT JOIN lists l ON l.movie_id = x.movie_id AND l.iso_639_1 = x.iso_639_1
