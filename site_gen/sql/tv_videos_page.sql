-- A table macro for the videos of a series, a season or an episode (`level`), in every language
-- variant, as movie_videos.sql does for films: the default document holds the default language's
-- videos, '.xx-YY' the videos in that served language (where the level has any) and '.und' none.
-- The body's id is the series', season's or episode's own id.
CREATE OR REPLACE TEMP MACRO tv_videos_page(level) AS TABLE
WITH owners AS (
    SELECT '/3/tv/' || id AS path, id FROM tv_series WHERE level = 'series'
    UNION ALL
    SELECT '/3/tv/' || series_id || '/season/' || season_number, id FROM tv_seasons WHERE level = 'season'
    UNION ALL
    SELECT '/3/tv/' || series_id || '/season/' || season_number || '/episode/' || episode_number, id
    FROM tv_episodes WHERE level = 'episode'
),
lists AS (
    SELECT '/3/tv/' || series_id || coalesce('/season/' || season_number, '')
               || coalesce('/episode/' || episode_number, '') AS path,
           iso_639_1, results
    FROM tv_video_lists
    WHERE CASE level WHEN 'series' THEN season_number IS NULL
                     WHEN 'season' THEN season_number IS NOT NULL AND episode_number IS NULL
                     ELSE episode_number IS NOT NULL END
),
variants AS (
    SELECT o.path, o.id, v.suffix, v.iso_639_1
    FROM owners o JOIN render_variants v ON v.kind IN ('default', 'und')
    UNION ALL
    SELECT o.path, o.id, v.suffix, v.iso_639_1
    FROM lists l JOIN owners o ON o.path = l.path
    JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = l.iso_639_1
)
SELECT
    x.path || '/videos' || x.suffix AS uri,
    ({'id': x.id, 'results': coalesce(l.results, [])}) AS doc
FROM variants x
LEFT JOIN lists l ON l.path = x.path AND l.iso_639_1 = x.iso_639_1
