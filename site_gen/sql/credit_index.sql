-- The rows of the credit index (site_gen/credit_index.py): every credit a credits document shows
-- (films' cast and crew, series' regulars, crew and creators, episodes' crew and guest stars), one
-- row each, chosen as /3/credit/{credit_id} documents were (tests/credit_details_before.sql, which
-- tests compare with). `shape` says what follows the title's item in `media` (edge/credit_index.py);
-- `character` is its JSON string as DuckDB writes it, quotes off, so the edge pastes the same bytes.
WITH episode_credits AS (  -- a credit of several episodes (a director of three) lists them all
    SELECT credit_id, credit_type, department, job, series_id, person_id, "character",
           ordered_values(list({'k1': s.summary.season_number, 'k2': s.summary.episode_number,
                                'v': e.episode_id})) AS episodes
    FROM (SELECT credit_id, 'cast' AS credit_type, 'Actors' AS department, 'Actor' AS job, series_id, person_id,
                 "character", episode_id FROM episode_guest_stars
          UNION ALL
          SELECT credit_id, 'crew', department, job, series_id, person_id, NULL, episode_id FROM episode_crew) e
    JOIN episode_summaries s ON s.episode_id = e.episode_id
    GROUP BY ALL
),
credits AS (
    SELECT credit_id, 'cast' AS credit_type, 'Actors' AS department, 'Actor' AS job, 'movie_cast' AS shape,
           'movie' AS media_type, movie_id AS media_id, person_id, "character", NULL::BIGINT[] AS episodes
    FROM "cast"
    UNION ALL
    SELECT credit_id, 'crew', department, job, 'movie_crew', 'movie', movie_id, person_id, NULL, NULL FROM crew
    UNION ALL
    SELECT credit_id, 'cast', 'Actors', 'Actor', 'tv_cast', 'tv', series_id, person_id, "character", NULL
    FROM series_cast
    UNION ALL
    SELECT credit_id, 'crew', department, job, 'tv_crew', 'tv', series_id, person_id, NULL, NULL FROM series_crew
    UNION ALL
    SELECT credit_id, 'crew', 'Crew', 'Creator', 'tv_crew', 'tv', series_id, person_id, NULL, NULL FROM created_by
    UNION ALL
    SELECT credit_id, credit_type, department, job, 'episode', 'tv', series_id, person_id, "character", episodes
    FROM episode_credits
),
chosen AS (
    SELECT * FROM credits c
    WHERE c.credit_id IS NOT NULL AND c.credit_id <> ''
      AND c.person_id IN (SELECT id FROM credit_people)  -- every person has an item (_items/person)
    QUALIFY row_number() OVER (PARTITION BY c.credit_id ORDER BY c.media_type, c.media_id, c.person_id) = 1
)
SELECT CASE WHEN regexp_full_match(credit_id, '[0-9a-f]{24}') THEN from_hex(credit_id) END AS hex_key,
       CASE WHEN NOT regexp_full_match(credit_id, '[0-9a-f]{24}') THEN credit_id END AS text_key,
       to_json({'credit_type': credit_type, 'department': department, 'job': job})::VARCHAR AS head,
       shape, media_id, person_id,
       CASE WHEN "character" IS NOT NULL THEN (to_json("character")::VARCHAR)[2:-2] END AS "character",
       episodes
FROM chosen
