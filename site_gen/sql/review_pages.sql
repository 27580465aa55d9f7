-- Reviews as TMDB shows them: tmdb_time(ts) is its timestamp format, review_author(...) its
-- author_details (a display name is "" when the author gave none; avatar and rating may be null).
CREATE OR REPLACE TEMP MACRO tmdb_time(ts) AS strftime(ts, '%Y-%m-%dT%H:%M:%S.%gZ');
CREATE OR REPLACE TEMP MACRO review_author(name, username, avatar_path, rating) AS
    {'name': coalesce(name, ''), 'username': username, 'avatar_path': avatar_path, 'rating': CAST(rating AS BIGINT)};

-- A table macro for /3/movie/{movie_id}/reviews and /3/tv/{series_id}/reviews (`media` 'movie' or
-- 'tv'). TMDB filters reviews by `language`, as videos: the default document holds the default
-- language's reviews, '.xx-YY' those in that served language (where the title has any), '.und' none.
-- Oldest first, 20 a page: page 1 at the plain uri, page n at '.page<n>' before the language suffix.
CREATE OR REPLACE TEMP MACRO review_pages(media) AS TABLE
WITH written AS (
    SELECT r.owner_id AS media_id, r.iso_639_1,
           row_number() OVER (PARTITION BY r.owner_id, r.iso_639_1 ORDER BY r.created_at, r.id) - 1 AS ord,
           {'author': r.author,
            'author_details': review_author(r.name, r.username, r.avatar_path, r.rating),
            'content': r.content,
            'created_at': tmdb_time(r.created_at),
            'id': r.id,
            'updated_at': tmdb_time(r.updated_at),
            'url': 'https://www.themoviedb.org/review/' || r.id} AS item
    FROM reviews r
    WHERE r.owner = media AND (media <> 'movie' OR in_scope('movie', r.owner_id))
),
totals AS (
    SELECT media_id, iso_639_1, count(*) AS total FROM written GROUP BY media_id, iso_639_1
),
titles AS (
    SELECT id FROM movies WHERE media = 'movie' AND in_scope('movie', id)
    UNION ALL
    SELECT id FROM tv_series WHERE media = 'tv'
),
variants AS (
    SELECT t.id AS media_id, v.suffix, v.iso_639_1
    FROM titles t JOIN render_variants v ON v.kind IN ('default', 'und')
    UNION ALL
    SELECT x.media_id, v.suffix, v.iso_639_1
    FROM totals x JOIN render_variants v ON v.kind = 'other' AND v.iso_639_1 = x.iso_639_1
),
pages AS (
    SELECT x.media_id, x.suffix, x.iso_639_1, coalesce(t.total, 0) AS total,
           unnest(range(1, greatest(1, (coalesce(t.total, 0) + 19) // 20) + 1)) AS page
    FROM variants x LEFT JOIN totals t ON t.media_id = x.media_id AND t.iso_639_1 = x.iso_639_1
),
page_items AS (
    SELECT media_id, iso_639_1, ord // 20 + 1 AS page, list(item ORDER BY ord) AS results
    FROM written GROUP BY media_id, iso_639_1, ord // 20 + 1
)
SELECT
    '/3/' || media || '/' || p.media_id || '/reviews' || CASE WHEN p.page = 1 THEN '' ELSE '.page' || p.page END
        || p.suffix AS uri,
    ({
        'id': p.media_id,
        'page': p.page,
        'results': coalesce(i.results, []),
        'total_pages': (p.total + 19) // 20,
        'total_results': p.total
    }) AS doc
FROM pages p
LEFT JOIN page_items i ON i.media_id = p.media_id AND i.iso_639_1 = p.iso_639_1 AND i.page = p.page
