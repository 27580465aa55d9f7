-- /3/movie/{movie_id}: TMDB's movie-details document, in the language
-- getvariable('iso_639_1')-getvariable('iso_3166_1') (en-US by default). Keys in TMDB's order.
-- Untranslated text falls back like TMDB: title -> original_title, overview/tagline -> "".
SELECT
    '/3/movie/' || m.id AS uri,
    encode(to_json({
        'adult': m.adult,
        'backdrop_path': m.backdrop_path,
        'belongs_to_collection': CASE WHEN c.id IS NULL THEN NULL ELSE
            {'id': c.id, 'name': c.name, 'poster_path': c.poster_path, 'backdrop_path': c.backdrop_path} END,
        'budget': m.budget,
        'genres': coalesce(g.genres, []),
        'homepage': coalesce(nullif(t.homepage, ''), m.homepage, ''),
        'id': m.id,
        'imdb_id': m.imdb_id,
        'origin_country': coalesce(m.origin_country, []),
        'original_language': m.original_language,
        'original_title': m.original_title,
        'overview': coalesce(t.overview, ''),
        'popularity': m.popularity,
        'poster_path': m.poster_path,
        'production_companies': coalesce(pc.production_companies, []),
        'production_countries': coalesce(pn.production_countries, []),
        'release_date': m.release_date,
        'revenue': m.revenue,
        'runtime': m.runtime,
        'spoken_languages': coalesce(sl.spoken_languages, []),
        'status': m.status,
        'tagline': coalesce(t.tagline, ''),
        'title': coalesce(nullif(t.title, ''), m.original_title),
        'video': m.video,
        'vote_average': m.vote_average,
        'vote_count': m.vote_count
    })) AS body
FROM movies m
LEFT JOIN movie_translations t
    ON t.movie_id = m.id
   AND t.iso_639_1 = getvariable('iso_639_1')
   AND t.iso_3166_1 = getvariable('iso_3166_1')
LEFT JOIN collections c ON c.id = m.collection_id
LEFT JOIN movie_genre_lists g ON g.movie_id = m.id
LEFT JOIN movie_company_lists pc ON pc.movie_id = m.id
LEFT JOIN movie_country_lists pn ON pn.movie_id = m.id
LEFT JOIN movie_language_lists sl ON sl.movie_id = m.id
