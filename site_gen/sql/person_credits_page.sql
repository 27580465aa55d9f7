-- A table macro for /3/person/{person_id}/movie_credits and /tv_credits (`which`: 'movie' or 'tv'):
-- every cast and crew row of that media type (items prepared by person_credit_items.sql and
-- person_tv_credit_items.sql). Newest first, undated (announced, unaired) ones before them, like a
-- filmography; ties by media id and credit id. "id" comes first (TMDB sends it last) because the
-- edge splices sub-resources by that key.
CREATE OR REPLACE TEMP MACRO person_credits_page(which) AS TABLE
WITH lists AS (
    SELECT person_id,
           list(item ORDER BY sort_date DESC NULLS FIRST, media_id, credit_id) FILTER (WHERE role = 'cast') AS "cast",
           list(item ORDER BY sort_date DESC NULLS FIRST, media_id, credit_id) FILTER (WHERE role = 'crew') AS crew
    FROM person_credit_items
    WHERE media_type = which
    GROUP BY person_id
)
SELECT
    '/3/person/' || cp.id || '/' || which || '_credits' AS uri,
    encode(to_json({
        'id': cp.id,
        'cast': coalesce(l."cast", []::JSON[]),
        'crew': coalesce(l.crew, []::JSON[])
    })) AS body
FROM credited_people cp
LEFT JOIN lists l ON l.person_id = cp.id
