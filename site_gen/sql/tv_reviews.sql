-- /3/tv/{series_id}/reviews (review_pages.sql), every series.
SELECT * FROM review_pages('tv')
