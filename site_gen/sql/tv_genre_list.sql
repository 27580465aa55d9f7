-- /3/genre/tv/list: every TV genre, alphabetical by name like TMDB.
SELECT
    '/3/genre/tv/list' AS uri,
    encode(to_json({'genres': list({'id': id, 'name': name} ORDER BY name)})) AS body
FROM tv_genres
