-- /compat/series/{series_id}/full: the whole plot, when it has more than one sentence.
SELECT '/compat/series/' || series_id || '/full' AS uri, doc FROM omdb_series_docs(true)
WHERE in_scope('series', series_id)
