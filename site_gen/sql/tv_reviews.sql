-- /3/tv/{series_id}/reviews (title_pages.sql), every series.
SELECT * FROM title_pages('reviews', 'tv', false)
