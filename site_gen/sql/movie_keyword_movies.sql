-- /3/keyword/{keyword_id}/movies: the keyword's films, most popular first (keyword_movie_ranks),
-- 20 a page; page 1 at the plain uri, pages 2-5 at `.page2`... Only the 5 rendered pages (100 films)
-- are counted in total_results / total_pages, so every page a client is told about exists. Each
-- film is a reference to its item document (item_ref; see movie_related_page.sql).
WITH counted AS (
    SELECT k.id AS keyword_id, least(count(r.movie_id), 100) AS total
    FROM keywords k LEFT JOIN keyword_movie_ranks r ON r.keyword_id = k.id
    GROUP BY k.id
),
pages AS (
    SELECT c.keyword_id, c.total, p.page
    FROM counted c, range(1, 6) p(page)
    WHERE p.page = 1 OR (p.page - 1) * 20 < c.total
),
page_results AS (
    SELECT r.keyword_id, r.ord // 20 + 1 AS page, string_agg(item_ref('movie', l.id), ',' ORDER BY r.ord) AS results
    FROM keyword_movie_ranks r JOIN movie_list_results l ON l.id = r.movie_id
    WHERE r.ord < 100
    GROUP BY r.keyword_id, r.ord // 20 + 1
)
SELECT
    '/3/keyword/' || p.keyword_id || '/movies' || CASE WHEN p.page = 1 THEN '' ELSE '.page' || p.page END AS uri,
    ({
        'id': p.keyword_id,
        'page': p.page,
        'results': CAST('[' || coalesce(pr.results, '') || ']' AS JSON),
        'total_pages': (p.total + 19) // 20,
        'total_results': p.total
    }) AS doc
FROM pages p
LEFT JOIN page_results pr ON pr.keyword_id = p.keyword_id AND pr.page = p.page
