-- /3/movie/{movie_id}/external_ids: TMDB's keys (null when a film has no such page), plus kinopoisk_id.
SELECT
    '/3/movie/' || m.id || '/external_ids' AS uri,
    ({
        'id': m.id,
        'imdb_id': m.imdb_id,
        'wikidata_id': e.wikidata_id,
        'facebook_id': e.facebook_id,
        'instagram_id': e.instagram_id,
        'twitter_id': e.twitter_id,
        'kinopoisk_id': e.kinopoisk_id
    }) AS doc
FROM movies m
LEFT JOIN movie_external_ids e ON e.movie_id = m.id
WHERE in_scope('movie', m.id)
