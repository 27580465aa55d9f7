-- Candidates for /3/tv/{series_id}/similar and /recommendations (tv_similar.sql,
-- tv_recommendations.sql). Comparing every pair of series that share a genre is quadratic (a genre
-- holds a tenth of the catalogue: 119 s for similar and 146 s for recommendations at 10k series),
-- so, as for films (032_movie_derived.sql), a series is compared only with its `reach` neighbours
-- on either side, by popularity, in the list of each feature it has: its keywords (weight 3),
-- networks (2) and genres (1), or its genres alone. Keys are feature << 32 | position.
CREATE OR REPLACE TEMP TABLE series_features AS
SELECT series_id, keyword_id * 4 AS feature, 3 AS weight FROM series_keywords
UNION ALL
SELECT series_id, network_id * 4 + 1, 2 FROM series_networks
UNION ALL
SELECT series_id, genre_id * 4 + 2, 1 FROM series_genres;

CREATE OR REPLACE TEMP MACRO series_neighbours(genres_only, reach) AS TABLE
WITH positions AS (
    SELECT f.series_id, f.feature * 4294967296
               + row_number() OVER (PARTITION BY f.feature ORDER BY o.popularity DESC NULLS LAST, f.series_id) AS key
    FROM series_features f LEFT JOIN tv_series_listed o ON o.id = f.series_id
    WHERE NOT genres_only OR f.feature % 4 = 2
),
targets AS (  -- computed first: a join condition over three relations plans as a cross product
    SELECT a.series_id, a.key + t.o AS target
    FROM positions a CROSS JOIN range(-reach, reach + 1) t(o) WHERE t.o <> 0
)
SELECT DISTINCT t.series_id, b.series_id AS other_id
FROM targets t JOIN positions b ON b.key = t.target
WHERE b.series_id <> t.series_id;

-- A listed series' standing: its place by popularity (none counts as least), ties by id. The two
-- lists rank by (score, standing) as one integer, each series' best kept by max_by's heap, as films'
-- do (032_movie_derived.sql, movie_standing): at 100k series recommendations and similar took 36
-- and 25 CPU s ordering every candidate pair by a window, 28 and 19 so (session 54).
CREATE OR REPLACE TEMP TABLE series_standing AS
SELECT id, row_number() OVER (ORDER BY popularity DESC NULLS LAST, id) AS standing FROM tv_series_listed;
