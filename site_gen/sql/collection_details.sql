-- /3/collection/{collection_id}: parts ordered by release date (undated last), then id.
-- TMDB's schema lists TV-style name/original_name for parts; the real API sends the movie-style
-- title/original_title too, so parts carry both.
WITH parts AS (
    SELECT m.collection_id,
           list({
               'adult': m.adult, 'backdrop_path': m.backdrop_path, 'id': m.id,
               'title': coalesce(nullif(t.title, ''), m.original_title),
               'original_title': m.original_title,
               'name': coalesce(nullif(t.title, ''), m.original_title),
               'original_name': m.original_title,
               'overview': coalesce(t.overview, ''), 'poster_path': m.poster_path,
               'media_type': 'movie', 'original_language': m.original_language,
               'genre_ids': coalesce(g.genre_ids, []), 'popularity': m.popularity,
               'release_date': m.release_date, 'video': m.video,
               'vote_average': m.vote_average, 'vote_count': m.vote_count
           } ORDER BY m.release_date NULLS LAST, m.id) AS parts
    FROM movies m
    LEFT JOIN movie_translations t
        ON t.movie_id = m.id
       AND t.iso_639_1 = getvariable('iso_639_1')
       AND t.iso_3166_1 = getvariable('iso_3166_1')
    LEFT JOIN movie_genre_lists g ON g.movie_id = m.id
    WHERE m.collection_id IS NOT NULL
    GROUP BY m.collection_id
)
SELECT
    '/3/collection/' || c.id AS uri,
    encode(to_json({
        'id': c.id,
        'name': c.name,
        'original_language': c.original_language,
        'original_name': c.name,
        'overview': c.overview,
        'poster_path': c.poster_path,
        'backdrop_path': c.backdrop_path,
        'parts': coalesce(p.parts, [])
    })) AS body
FROM collections c
LEFT JOIN parts p ON p.collection_id = c.id
