-- Every movie as an item of TMDB's paginated movie lists (similar, recommendations, keyword movies),
-- keys in TMDB's order, in the language getvariable('iso_639_1')-getvariable('iso_3166_1').
-- site_gen.movie serialises and checks it once (documents.checked_items) as the table
-- movie_list_results(id, popularity, json).
SELECT
    m.id,
    m.popularity,
    {
        'adult': m.adult,
        'backdrop_path': m.backdrop_path,
        'genre_ids': coalesce(g.genre_ids, []),
        'id': m.id,
        'original_language': m.original_language,
        'original_title': m.original_title,
        'overview': coalesce(t.overview, ''),
        'popularity': m.popularity,
        'poster_path': m.poster_path,
        'release_date': coalesce(CAST(m.release_date AS VARCHAR), ''),  -- TMDB's "" for no date
        'title': coalesce(nullif(t.title, ''), m.original_title),
        'video': m.video,
        'vote_average': m.vote_average,
        'vote_count': m.vote_count
    } AS item
FROM movies m
LEFT JOIN movie_translations t
    ON t.movie_id = m.id
   AND t.iso_639_1 = getvariable('iso_639_1')
   AND t.iso_3166_1 = getvariable('iso_3166_1')
LEFT JOIN movie_genre_lists g ON g.movie_id = m.id
