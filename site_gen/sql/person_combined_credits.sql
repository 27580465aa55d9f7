-- /3/person/{person_id}/combined_credits: movie and TV items together, each with media_type;
-- newest first (release_date or first_air_date), undated first, then media type, id, credit id.
WITH lists AS (
    SELECT person_id,
           list(combined_item ORDER BY sort_date DESC NULLS FIRST, media_type, media_id, credit_id)
               FILTER (WHERE role = 'cast') AS "cast",
           list(combined_item ORDER BY sort_date DESC NULLS FIRST, media_type, media_id, credit_id)
               FILTER (WHERE role = 'crew') AS crew
    FROM person_credit_items
    GROUP BY person_id
)
SELECT
    '/3/person/' || cp.id || '/combined_credits' AS uri,
    encode(to_json({
        'id': cp.id,
        'cast': coalesce(l."cast", []::JSON[]),
        'crew': coalesce(l.crew, []::JSON[])
    })) AS body
FROM credited_people cp
LEFT JOIN lists l ON l.person_id = cp.id
