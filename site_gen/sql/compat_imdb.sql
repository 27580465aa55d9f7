-- /compat/imdb/{imdb_id}: which /compat document an IMDb id names (`i=`): nginx reads this, then the
-- document. One per id: a film before a series before an episode, should a catalogue give two the same.
SELECT '/compat/imdb/' || imdb_id AS uri, {'name': arg_min(name, rank)} AS doc FROM (
    SELECT imdb_id, 'compat/movie/' || id AS name, 1 AS rank FROM movies WHERE imdb_id LIKE 'tt%'
    UNION ALL
    SELECT imdb_id, 'compat/series/' || id, 2 FROM tv_series WHERE imdb_id LIKE 'tt%'
    UNION ALL
    SELECT e.imdb_id, 'compat/episode/' || e.series_id || '/' || e.id, 3 FROM tv_episodes e
    JOIN tv_series s ON s.id = e.series_id WHERE e.imdb_id LIKE 'tt%' AND s.imdb_id LIKE 'tt%'
) GROUP BY imdb_id
