-- /3/person/{person_id}/tagged_images: the film images a person is tagged in, best voted first, 20 a
-- page (page n at '.page<n>'). Each result's `media` is a reference to the film's list item
-- (_items/movie: marquee/packs.py composites) with its media_type; an image's id is derived from its
-- file, as the catalogue has none for film images.
WITH tagged AS (
    SELECT t.person_id,
           row_number() OVER (PARTITION BY t.person_id ORDER BY i.vote_average DESC, t.file_path) - 1 AS ord,
           left(to_json({'aspect_ratio': i.aspect_ratio, 'file_path': i.file_path, 'height': i.height,
                         'id': left(md5(i.file_path), 24), 'iso_639_1': i.iso_639_1,
                         'vote_average': i.vote_average, 'vote_count': i.vote_count, 'width': i.width,
                         'image_type': i.kind})::VARCHAR, -1)
               || ',"media":' || left(item_ref(t.owner, t.owner_id), -1) || ',"media_type":"' || t.owner || '"}'
               || ',"media_type":"' || t.owner || '"}' AS entry
    FROM tagged_images t
    JOIN movie_images i ON t.owner = 'movie' AND i.movie_id = t.owner_id AND i.file_path = t.file_path
),
counted AS (
    SELECT person_id, count(*) AS total FROM tagged GROUP BY person_id
),
page_entries AS (
    SELECT person_id, ord // 20 + 1 AS page, array_to_string(ordered_values(list({'k': ord, 'v': entry})), ',') AS entries
    FROM tagged GROUP BY person_id, ord // 20 + 1
),
pages AS (
    SELECT p.id AS person_id, coalesce(c.total, 0) AS total,
           unnest(range(1, greatest(1, (coalesce(c.total, 0) + 19) // 20) + 1)) AS page
    FROM credit_people p LEFT JOIN counted c ON c.person_id = p.id  -- every person: the prepared list keeps to the scope
)
SELECT
    '/3/person/' || p.person_id || '/tagged_images' || CASE WHEN p.page = 1 THEN '' ELSE '.page' || p.page END AS uri,
    ({
        'id': p.person_id,
        'page': p.page,
        'results': CAST('[' || coalesce(e.entries, '') || ']' AS JSON),
        'total_pages': (p.total + 19) // 20,
        'total_results': p.total
    }) AS doc
FROM pages p
LEFT JOIN page_entries e ON e.person_id = p.person_id AND e.page = p.page
