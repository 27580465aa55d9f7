-- /3/movie/{movie_id}/ratings (ours): one key per source, {value, votes} or null when the source has
-- no rating. Scales: imdb, tmdb, kinopoisk 0-10; rotten_tomatoes, metacritic 0-100.
WITH r AS (
    SELECT movie_id, source,
           CASE WHEN value IS NULL THEN NULL ELSE {'value': value, 'votes': votes} END AS rating
    FROM movie_ratings
    WHERE in_scope('movie', movie_id)
)
SELECT
    '/3/movie/' || m.id || '/ratings' AS uri,
    ({
        'id': m.id,
        'imdb': max(r.rating) FILTER (WHERE r.source = 'imdb'),
        'tmdb': max(r.rating) FILTER (WHERE r.source = 'tmdb'),
        'rotten_tomatoes': max(r.rating) FILTER (WHERE r.source = 'rotten_tomatoes'),
        'metacritic': max(r.rating) FILTER (WHERE r.source = 'metacritic'),
        'kinopoisk': max(r.rating) FILTER (WHERE r.source = 'kinopoisk')
    }) AS doc
FROM movies m
LEFT JOIN r ON r.movie_id = m.id
WHERE in_scope('movie', m.id)
GROUP BY m.id
