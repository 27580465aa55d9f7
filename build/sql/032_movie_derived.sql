-- What the build derives for the movie sub-resources (nothing here is generated; moods are in
-- 044_moods.sql): similar and recommended movies from shared genres and keywords, and
-- the ranked movie list of every keyword. All orderings end in an id, so output is deterministic.

-- Features a film can share with another: each keyword (weight 2) and each genre (weight 1), as one
-- integer (keyword ids even, genre ids odd) so the neighbour joins below are single-key hash joins.
CREATE OR REPLACE TEMP TABLE movie_features AS
SELECT movie_id, keyword_id * 2 AS feature, 2 AS weight FROM movie_keywords
UNION ALL
SELECT movie_id, genre_id * 2 + 1, 1 FROM movie_genres;

-- Comparing every pair of films sharing a genre is quadratic (a genre holds a fifth of the catalogue),
-- so each film is compared only with its 5 neighbours on either side in every feature's list:
-- "similar" orders those lists by popularity (films of like standing), "recommendations" by release
-- date (contemporaries) and adds 5 for the same collection. A pair's score is the summed weight of
-- the features it is neighbours in. Top 20 per film: score, then popularity, then id.
-- Keys are feature << 32 | position; a position past either end of a list matches nothing.
CREATE OR REPLACE TEMP TABLE feature_positions AS
SELECT f.movie_id, f.weight,
       f.feature * 4294967296 + row_number() OVER (PARTITION BY f.feature ORDER BY m.popularity DESC, m.id) AS popularity_key,
       f.feature * 4294967296 + row_number() OVER (PARTITION BY f.feature ORDER BY m.release_date NULLS LAST, m.id) AS date_key
FROM movie_features f JOIN movies m ON m.id = f.movie_id;

CREATE OR REPLACE TEMP TABLE related_pairs AS
WITH offsets AS (
    SELECT o FROM range(-5, 6) t(o) WHERE o <> 0
),
targets AS (
    SELECT f.movie_id, f.weight, f.popularity_key + o AS popularity_target, f.date_key + o AS date_target
    FROM feature_positions f CROSS JOIN offsets
)
SELECT 'similar' AS kind, t.movie_id, b.movie_id AS other_id, sum(t.weight) AS score
FROM targets t JOIN feature_positions b ON b.popularity_key = t.popularity_target
GROUP BY t.movie_id, b.movie_id
UNION ALL
SELECT 'recommendations', movie_id, other_id, sum(score) FROM (
    SELECT t.movie_id, b.movie_id AS other_id, t.weight AS score
    FROM targets t JOIN feature_positions b ON b.date_key = t.date_target
    UNION ALL
    SELECT a.id, b.id, 5
    FROM movies a JOIN movies b ON b.collection_id = a.collection_id AND b.id <> a.id
) GROUP BY movie_id, other_id;

-- A film's standing: its place by popularity (none counts as least), ties by id. It breaks ties of
-- score below, as one integer: comparing a struct of score, popularity and id per pair took 5.3 s
-- of the 100k build (×14 from 10k), this 1.4 s, with the same lists.
CREATE OR REPLACE TEMP TABLE movie_standing AS
SELECT id, row_number() OVER (ORDER BY popularity DESC NULLS LAST, id) AS standing FROM movies;

CREATE OR REPLACE TABLE movie_related AS
WITH top AS (  -- max_by(.., 20) keeps a 20-entry heap per group instead of sorting every pair
    SELECT r.kind, r.movie_id, max_by(r.other_id, r.score::BIGINT * 4294967296 - s.standing, 20) AS others
    FROM related_pairs r JOIN movie_standing s ON s.id = r.other_id GROUP BY r.kind, r.movie_id
)
SELECT kind, movie_id, unnest(others) AS other_id, generate_subscripts(others, 1) - 1 AS ord
FROM top;

-- Every keyword's films, most popular first; /3/keyword/{id}/movies renders the first KEYWORD_PAGES
-- (5) pages of 20.
CREATE OR REPLACE TABLE keyword_movie_ranks AS
SELECT mk.keyword_id, mk.movie_id,
       row_number() OVER (PARTITION BY mk.keyword_id ORDER BY m.popularity DESC, m.id) - 1 AS ord
FROM movie_keywords mk JOIN movies m ON m.id = mk.movie_id;
