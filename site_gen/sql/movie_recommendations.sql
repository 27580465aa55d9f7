-- The in_scope filter is applied inside movie_related_page (movie_related_page.sql); repeated here so
-- a scoped rebuild (site_gen/scope.py) sees that this template renders only the films in scope.
SELECT * FROM movie_related_page('recommendations') WHERE in_scope('movie', doc.id)
