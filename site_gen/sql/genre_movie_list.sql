-- /3/genre/movie/list: every movie genre, alphabetical by name like TMDB.
SELECT
    '/3/genre/movie/list' AS uri,
    encode(to_json({'genres': list({'id': id, 'name': name} ORDER BY name)})) AS body
FROM genres
