-- /compat/movie/{movie_id}/full: the same with the whole plot, for films whose plot has more than one
-- sentence (nginx and the edge fall back to the short document when there is none).
SELECT '/compat/movie/' || movie_id || '/full' AS uri, doc FROM omdb_movie_docs(true)
WHERE in_scope('movie', movie_id)
