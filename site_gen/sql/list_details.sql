-- /3/list/{list_id}: a public list with its titles, 20 a page (page n at '.page<n>'). Each title is a
-- reference to its list item (_items/movie, _items/tv: marquee/packs.py composites) followed by its
-- media_type, so a renamed film rewrites its item, not the lists it is on; the edge puts the titles
-- in the language asked for (edge/assemble.py, as a film's similar list).
WITH counted AS (
    SELECT list_id, count(*) AS total FROM list_items GROUP BY list_id
),
entries AS (
    SELECT list_id, row_number() OVER (PARTITION BY list_id ORDER BY ord) - 1 AS position,
           left(item_ref(owner, owner_id), -1) || ',"media_type":"' || owner || '"}' AS entry
    FROM list_items WHERE owner IN ('movie', 'tv')
),
page_entries AS (
    SELECT list_id, position // 20 + 1 AS page, string_agg(entry, ',' ORDER BY position) AS entries
    FROM entries GROUP BY list_id, position // 20 + 1
),
pages AS (
    SELECT l.*, coalesce(c.total, 0) AS total,
           unnest(range(1, greatest(1, (coalesce(c.total, 0) + 19) // 20) + 1)) AS page
    FROM lists l LEFT JOIN counted c ON c.list_id = l.id
)
SELECT
    '/3/list/' || p.id || CASE WHEN p.page = 1 THEN '' ELSE '.page' || p.page END AS uri,
    ({
        'created_by': p.created_by,
        'description': coalesce(p.description, ''),
        'favorite_count': p.favorite_count,
        'id': CAST(p.id AS VARCHAR),
        'items': CAST('[' || coalesce(e.entries, '') || ']' AS JSON),
        'item_count': p.total,
        'iso_639_1': p.iso_639_1,
        'name': p.name,
        'poster_path': p.poster_path,
        'page': p.page,
        'total_pages': (p.total + 19) // 20,
        'total_results': p.total
    }) AS doc
FROM pages p
LEFT JOIN page_entries e ON e.list_id = p.id AND e.page = p.page
