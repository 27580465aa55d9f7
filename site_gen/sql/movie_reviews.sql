-- /3/movie/{movie_id}/reviews (review_pages.sql). in_scope is applied inside review_pages; repeated
-- here so site_gen/scope.py sees that this template renders only the films in scope.
SELECT * FROM review_pages('movie') WHERE in_scope('movie', doc.id)
