-- /3/tv/{series_id}/lists (title_pages.sql): the public lists a series is on.
SELECT * FROM title_pages('lists', 'tv', false)
