-- /3/review/{review_id}: one review with the title it is about, that title's name in the default
-- language (as the title's own default document names it).
SELECT
    '/3/review/' || r.id AS uri,
    ({
        'id': r.id,
        'author': r.author,
        'author_details': review_author(r.name, r.username, r.avatar_path, r.rating),
        'content': r.content,
        'created_at': tmdb_time(r.created_at),
        'iso_639_1': r.iso_639_1,
        'media_id': r.owner_id,
        'media_title': coalesce(CASE r.owner WHEN 'movie' THEN coalesce(nullif(t.title, ''), m.original_title)
                                             ELSE s.name END, ''),
        'media_type': r.owner,
        'updated_at': tmdb_time(r.updated_at),
        'url': 'https://www.themoviedb.org/review/' || r.id
    }) AS doc
FROM reviews r
LEFT JOIN movies m ON r.owner = 'movie' AND m.id = r.owner_id
LEFT JOIN movie_translations t ON t.movie_id = m.id AND t.iso_639_1 = getvariable('iso_639_1')
    AND t.iso_3166_1 = getvariable('iso_3166_1')
LEFT JOIN tv_series_listed s ON r.owner = 'tv' AND s.id = r.owner_id
WHERE r.owner IN ('movie', 'tv')
