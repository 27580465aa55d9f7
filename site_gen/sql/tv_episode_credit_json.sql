-- What seasons (every episode, every language variant), episodes and episode credits splice as an
-- episode's crew and guest stars: a reference to the episode's list item (marquee/packs.py; the
-- lists are tv_episode_credit_lists.sql), or [] for none. The lists were 82% of the season
-- documents' bytes and 84% of the episodes', repeated in each language variant.
CREATE OR REPLACE TEMP TABLE episode_credit_json AS
SELECT episode_id,
       CAST(CASE WHEN crew IS NULL THEN '[]' ELSE item_ref('episode_crew/' || series_id, episode_id) END AS JSON)
           AS crew,
       CAST(CASE WHEN guest_stars IS NULL THEN '[]'
                 ELSE item_ref('episode_guest_stars/' || series_id, episode_id) END AS JSON) AS guest_stars
FROM episode_credit_lists
