-- /3/tv/{series_id}/similar: series sharing the most genres, then the more popular, 20 a page;
-- page 1 is the plain uri, page N the `.pageN` variant. At most MAX 40 results (two pages).
-- Candidates are neighbours in each genre's popularity list (tv_neighbours.sql), ranked by how
-- many genres each really shares with the series. The page is a composite (marquee/packs.py):
-- its results are the series' items, /_items/tv/{id}, as in people's TV credits.
WITH pairs AS (
    SELECT c.series_id, c.other_id, len(list_intersect(ga.genre_ids, gb.genre_ids)) AS shared
    FROM series_neighbours(true, 40) c
    JOIN series_genre_lists ga ON ga.series_id = c.series_id
    JOIN series_genre_lists gb ON gb.series_id = c.other_id
),
top AS (  -- the 40 best by genres shared, then standing (tv_neighbours.sql), kept in a heap, not sorted
    SELECT p.series_id, count(*) AS total, max_by(p.other_id, p.shared * 4294967296 - st.standing, 40) AS others
    FROM pairs p JOIN series_standing st ON st.id = p.other_id
    GROUP BY p.series_id
),
ranked AS (
    SELECT series_id, total, unnest(others) AS id, generate_subscripts(others, 1) - 1 AS pos FROM top
),
pages AS (  -- each result a reference to the series' item (person_tv_items.sql), spliced when served
    SELECT series_id, pos // 20 + 1 AS page, any_value(least(total, 40)) AS total,
           array_to_string(ordered_values(list({'k': pos, 'v': item_ref('tv', id)})), ',') AS results
    FROM ranked
    GROUP BY series_id, page
)
SELECT
    '/3/tv/' || s.id || '/similar' || CASE WHEN coalesce(p.page, 1) = 1 THEN '' ELSE '.page' || p.page END AS uri,
    ({
        'page': coalesce(p.page, 1),
        'results': CAST('[' || coalesce(p.results, '') || ']' AS JSON),
        'total_pages': CAST(greatest(ceil(coalesce(p.total, 0) / 20), 1) AS BIGINT),
        'total_results': coalesce(p.total, 0)
    }) AS doc
FROM tv_series s
LEFT JOIN pages p ON p.series_id = s.id
