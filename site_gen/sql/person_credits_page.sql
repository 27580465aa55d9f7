-- A table macro for /3/person/{person_id}/movie_credits, /tv_credits and /combined_credits
-- (`which`: 'movie', 'tv' or 'combined'): every cast and crew row of that media type, or of both
-- for combined, whose entries carry media_type (person_credit_items: the entries of
-- person_{movie,tv}_{cast,crew}_entries.sql). The documents are composites: each entry is a
-- reference to the film's or series' item document followed by the credit's own fields, spliced
-- when served (marquee/packs.py). Newest first (release_date or first_air_date), undated
-- (announced, unaired) ones before them, like a filmography; ties by media type, media id and
-- credit id. "id" comes first (TMDB sends it last) because the edge splices sub-resources by that key.
CREATE OR REPLACE TEMP MACRO person_credits_page(which) AS TABLE
WITH items AS (
    SELECT person_id, role, sort_date, media_type, media_id, credit_id,
           CASE WHEN which = 'combined' THEN combined_entry ELSE entry END AS entry
    FROM person_credit_items
    WHERE (which = 'combined' OR media_type = which) AND in_scope('person', person_id)
),
lists AS (
    SELECT person_id,
           array_to_string(ordered_values(list({'k1': sort_date IS NOT NULL, 'k2': -epoch(sort_date),
                                                'k3': media_type, 'k4': media_id, 'k5': credit_id, 'v': entry})
                                           FILTER (WHERE role = 'cast')), ',') AS "cast",
           array_to_string(ordered_values(list({'k1': sort_date IS NOT NULL, 'k2': -epoch(sort_date),
                                                'k3': media_type, 'k4': media_id, 'k5': credit_id, 'v': entry})
                                           FILTER (WHERE role = 'crew')), ',') AS crew
    FROM items
    GROUP BY person_id
)
SELECT
    '/3/person/' || cp.id || '/' || which || '_credits' AS uri,
    ({
        'id': cp.id,
        'cast': CAST('[' || coalesce(l."cast", '') || ']' AS JSON),
        'crew': CAST('[' || coalesce(l.crew, '') || ']' AS JSON)
    }) AS doc
FROM credited_people cp
LEFT JOIN lists l ON l.person_id = cp.id
WHERE in_scope('person', cp.id)
