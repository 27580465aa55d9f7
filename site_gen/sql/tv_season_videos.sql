-- /3/tv/{series_id}/season/{season_number}/videos in every language variant (tv_videos_page.sql).
SELECT * FROM tv_videos_page('season')
