-- Moods of each series, by the same rules as films (031_mood_rules.sql): the weights of the rules its
-- genres (by English name) and keywords (by name) match, summed per mood; at least min_score, the
-- max_moods best kept (score desc, then mood name).
CREATE OR REPLACE TABLE series_moods AS
WITH hits AS (
    SELECT sg.series_id, r.mood, r.weight
    FROM series_genres sg
    JOIN tv_genres g ON g.id = sg.genre_id
    JOIN mood_rules r ON r.source = 'genre' AND r.name = g.name
    UNION ALL
    SELECT sk.series_id, r.mood, r.weight
    FROM series_keywords sk
    JOIN tv_keywords k ON k.id = sk.keyword_id
    JOIN mood_rules r ON r.source = 'keyword' AND r.name = k.name
),
scored AS (
    SELECT series_id, mood, sum(weight)::BIGINT AS score
    FROM hits
    GROUP BY series_id, mood
    HAVING sum(weight) >= (SELECT min_score FROM mood_limits)
)
SELECT series_id, mood, score,
       row_number() OVER (PARTITION BY series_id ORDER BY score DESC, mood) - 1 AS ord
FROM scored
QUALIFY ord < (SELECT max_moods FROM mood_limits);
