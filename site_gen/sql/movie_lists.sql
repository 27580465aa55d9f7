-- /3/movie/{movie_id}/lists (title_pages.sql): the public lists a film is on, every film's (a list
-- renamed changes the documents of every film on it, which entity scopes do not follow).
SELECT * FROM title_pages('lists', 'movie', false)
