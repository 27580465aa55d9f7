-- /3/tv/{series_id}/videos in every language variant (tv_videos_page.sql).
SELECT * FROM tv_videos_page('series')
