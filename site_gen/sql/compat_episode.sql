-- /compat/episode/{series_id}/{episode_id}: OMDb's episode object, short plot (every episode of a
-- series with an IMDb id: `Season` and `Episode` reach it through the series).
SELECT '/compat/episode/' || series_id || '/' || episode_id AS uri, doc FROM omdb_episode_docs(false)
WHERE in_scope('series', series_id)
