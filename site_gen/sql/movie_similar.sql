-- /3/movie/{movie_id}/similar (movie_related_page.sql).
SELECT * FROM movie_related_page('similar')
