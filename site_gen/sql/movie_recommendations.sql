-- /3/movie/{movie_id}/recommendations (movie_related_page.sql).
SELECT * FROM movie_related_page('recommendations')
