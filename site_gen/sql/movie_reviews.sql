-- /3/movie/{movie_id}/reviews (title_pages.sql). in_scope is applied inside title_pages; repeated
-- here so site_gen/scope.py sees that this template renders only the films in scope.
SELECT * FROM title_pages('reviews', 'movie', true) WHERE in_scope('movie', doc.id)
