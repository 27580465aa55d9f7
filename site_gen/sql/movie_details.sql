-- /3/movie/{movie_id}: TMDB's movie-details document in every language variant at once (see
-- site_gen/languages.py): the default language for every film (uri without suffix), each other
-- served language the film has a translation in ('/3/movie/603.de-DE'), and '.und' for every film.
-- Keys in TMDB's order. Untranslated text falls back like TMDB: title -> original_title,
-- overview/tagline -> "", homepage -> the film's own. Genre names follow the variant's language;
-- people are never translated (and are not in this document).
WITH variants AS (
    SELECT m.id AS movie_id, v.suffix, v.iso_639_1, v.iso_3166_1, v.genre_language
    FROM movies m JOIN render_variants v ON v.kind IN ('default', 'und')
    WHERE in_scope('movie', m.id)
    UNION ALL
    SELECT t.movie_id, v.suffix, v.iso_639_1, v.iso_3166_1, v.genre_language
    FROM movie_translations t
    JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = t.iso_639_1 AND v.iso_3166_1 = t.iso_3166_1
    WHERE in_scope('movie', t.movie_id)
)
SELECT
    '/3/movie/' || m.id || x.suffix AS uri,
    ({
        'adult': m.adult,
        'backdrop_path': m.backdrop_path,
        'belongs_to_collection': CASE WHEN c.id IS NULL THEN NULL ELSE
            {'id': c.id, 'name': coalesce(nullif(ct.name, ''), c.name), 'poster_path': c.poster_path,
             'backdrop_path': c.backdrop_path} END,
        'budget': m.budget,
        'genres': coalesce(list_transform(g.genre_ids, lambda i: {'id': i, 'name': gn.names[i]}), []),
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
        'release_date': coalesce(CAST(m.release_date AS VARCHAR), ''),  -- TMDB's "" for no date
        'revenue': m.revenue,
        'runtime': m.runtime,
        'spoken_languages': coalesce(sl.spoken_languages, []),
        'status': m.status,
        'tagline': coalesce(t.tagline, ''),
        'title': coalesce(nullif(t.title, ''), m.original_title),
        'video': m.video,
        'vote_average': m.vote_average,
        'vote_count': m.vote_count
    }) AS doc
FROM variants x
JOIN movies m ON m.id = x.movie_id
LEFT JOIN movie_translations t
    ON t.movie_id = m.id AND t.iso_639_1 = x.iso_639_1 AND t.iso_3166_1 = x.iso_3166_1
LEFT JOIN collections c ON c.id = m.collection_id
LEFT JOIN collection_translations ct
    ON ct.collection_id = m.collection_id AND ct.iso_639_1 = x.iso_639_1 AND ct.iso_3166_1 = x.iso_3166_1
LEFT JOIN genre_name_maps gn ON gn.iso_639_1 = x.genre_language
LEFT JOIN movie_genre_lists g ON g.movie_id = m.id
LEFT JOIN movie_company_lists pc ON pc.movie_id = m.id
LEFT JOIN movie_country_lists pn ON pn.movie_id = m.id
LEFT JOIN movie_language_lists sl ON sl.movie_id = m.id
