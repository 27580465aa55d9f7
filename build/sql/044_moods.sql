-- Moods of every film and series, by the rules in 031_mood_rules.sql: per title and mood, the sum of
-- the weights of the rules its genres (by English name) and keywords (by name) match. A mood needs
-- at least mood_limits.min_score; a title keeps its max_moods best (score desc, then mood name).
-- owner is 'movie' or 'tv', as in image_lists.
CREATE OR REPLACE TABLE moods AS
WITH terms AS (
    -- Every genre and keyword name of every title: what the rules match.
    SELECT 'movie' AS owner, mg.movie_id AS owner_id, 'genre' AS source, g.name
    FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id
    UNION ALL
    SELECT 'movie', mk.movie_id, 'keyword', k.name
    FROM movie_keywords mk JOIN keywords k ON k.id = mk.keyword_id
    UNION ALL
    SELECT 'tv', sg.series_id, 'genre', g.name
    FROM series_genres sg JOIN tv_genres g ON g.id = sg.genre_id
    UNION ALL
    SELECT 'tv', sk.series_id, 'keyword', k.name
    FROM series_keywords sk JOIN tv_keywords k ON k.id = sk.keyword_id
),
hits AS (
    SELECT t.owner, t.owner_id, r.mood, r.weight
    FROM terms t JOIN mood_rules r ON r.source = t.source AND r.name = t.name
),
scored AS (
    SELECT owner, owner_id, mood, sum(weight)::BIGINT AS score
    FROM hits
    GROUP BY owner, owner_id, mood
    HAVING sum(weight) >= (SELECT min_score FROM mood_limits)
)
SELECT owner, owner_id, mood, score,
       row_number() OVER (PARTITION BY owner, owner_id ORDER BY score DESC, mood) - 1 AS ord
FROM scored
QUALIFY ord < (SELECT max_moods FROM mood_limits);

-- The /moods lists, strongest first.
CREATE OR REPLACE TABLE mood_lists AS
SELECT owner, owner_id, list({'name': mood, 'score': score} ORDER BY ord) AS moods
FROM moods GROUP BY owner, owner_id;
