-- /compat/series/{series_id}: OMDb's title object of a series with an IMDb id, short plot.
SELECT '/compat/series/' || series_id AS uri, doc FROM omdb_series_docs(false) WHERE in_scope('series', series_id)
