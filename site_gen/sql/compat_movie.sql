-- /compat/movie/{movie_id}: OMDb's title object of a film with an IMDb id, short plot (compat_macros.sql).
SELECT '/compat/movie/' || movie_id AS uri, doc FROM omdb_movie_docs(false) WHERE in_scope('movie', movie_id)
