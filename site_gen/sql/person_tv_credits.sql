-- /3/person/{person_id}/tv_credits: the TV rows of person_credit_items, newest series first
-- (unaired ones before them), then series id and credit id; "id" first for the edge's splicing.
WITH lists AS (
    SELECT person_id,
           list(item ORDER BY sort_date DESC NULLS FIRST, media_id, credit_id) FILTER (WHERE role = 'cast') AS "cast",
           list(item ORDER BY sort_date DESC NULLS FIRST, media_id, credit_id) FILTER (WHERE role = 'crew') AS crew
    FROM person_credit_items
    WHERE media_type = 'tv'
    GROUP BY person_id
)
SELECT
    '/3/person/' || cp.id || '/tv_credits' AS uri,
    encode(to_json({
        'id': cp.id,
        'cast': coalesce(l."cast", []::JSON[]),
        'crew': coalesce(l.crew, []::JSON[])
    })) AS body
FROM credited_people cp
LEFT JOIN lists l ON l.person_id = cp.id
