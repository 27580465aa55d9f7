-- Kept for tests/test_edge_credit.py only: the template as it rendered before the credit index
-- (site_gen/sql/credit_index.sql picks the same credits, with the same CTE), frozen so that every
-- credit the index answers is compared with the document it replaced.
-- /3/credit/{credit_id}: every credit a credits document shows (films' cast and crew, series'
-- regulars, crew and creators, episodes' crew and guest stars), in TMDB's shape. The document is a
-- composite (marquee/packs.py): `media` is the film's or series' list item (_items/movie, _items/tv)
-- followed by the credit's own fields, `person` the person's item, so a credit costs ~250 bytes and a
-- renamed film rewrites its item, not its credits. An episode's credit lists its episodes.
WITH episode_credits AS (  -- a credit of several episodes (a director of three) lists them all
    SELECT credit_id, credit_type, department, job, series_id, person_id, "character",
           list(s.summary ORDER BY s.summary.season_number, s.summary.episode_number) AS episodes
    FROM (SELECT credit_id, 'cast' AS credit_type, 'Actors' AS department, 'Actor' AS job, series_id, person_id,
                 "character", episode_id FROM episode_guest_stars
          UNION ALL
          SELECT credit_id, 'crew', department, job, series_id, person_id, NULL, episode_id FROM episode_crew) e
    JOIN episode_summaries s ON s.episode_id = e.episode_id
    GROUP BY ALL
),
credits AS (
    SELECT credit_id, 'cast' AS credit_type, 'Actors' AS department, 'Actor' AS job, 'movie' AS media_type,
           movie_id AS media_id, person_id, to_json({'character': "character", 'media_type': 'movie'})::VARCHAR AS extra
    FROM "cast"
    UNION ALL
    SELECT credit_id, 'crew', department, job, 'movie', movie_id, person_id, '{"media_type":"movie"}' FROM crew
    UNION ALL
    SELECT credit_id, 'cast', 'Actors', 'Actor', 'tv', series_id, person_id,
           to_json({'character': "character", 'media_type': 'tv', 'episodes': []::JSON[], 'seasons': []::JSON[]})::VARCHAR
    FROM series_cast
    UNION ALL
    SELECT credit_id, 'crew', department, job, 'tv', series_id, person_id,
           '{"media_type":"tv","episodes":[],"seasons":[]}' FROM series_crew
    UNION ALL
    SELECT credit_id, 'crew', 'Crew', 'Creator', 'tv', series_id, person_id,
           '{"media_type":"tv","episodes":[],"seasons":[]}' FROM created_by
    UNION ALL
    SELECT credit_id, credit_type, department, job, 'tv', series_id, person_id,
           to_json({'character': "character", 'media_type': 'tv', 'episodes': episodes, 'seasons': []::JSON[]})::VARCHAR
    FROM episode_credits
)
SELECT
    '/3/credit/' || c.credit_id AS uri,
    ({
        'credit_type': c.credit_type,
        'department': c.department,
        'job': c.job,
        'media': CAST(left(item_ref(c.media_type, c.media_id), -1) || ',' || substr(c.extra, 2) AS JSON),
        'media_type': c.media_type,
        'id': c.credit_id,
        'person': CAST(left(item_ref('person', c.person_id), -1) || ',"media_type":"person"}' AS JSON)
    }) AS doc
FROM credits c
WHERE c.credit_id IS NOT NULL AND c.credit_id <> ''
  AND c.person_id IN (SELECT id FROM credit_people)  -- every person has an item (_items/person)
QUALIFY row_number() OVER (PARTITION BY c.credit_id ORDER BY c.media_type, c.media_id, c.person_id) = 1
