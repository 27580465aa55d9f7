-- /compat/episode/{series_id}/{episode_id}/full: the whole plot, when it has more than one sentence.
SELECT '/compat/episode/' || series_id || '/' || episode_id || '/full' AS uri, doc FROM omdb_episode_docs(true)
WHERE in_scope('series', series_id)
