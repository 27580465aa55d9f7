-- Reviews and public lists as TMDB shows them: tmdb_time(ts) is its timestamp format, review_author(...)
-- a review's author_details (a display name is "" when the author gave none; avatar and rating may
-- be null).
CREATE OR REPLACE TEMP MACRO tmdb_time(ts) AS strftime(ts, '%Y-%m-%dT%H:%M:%S.%gZ');
CREATE OR REPLACE TEMP MACRO review_author(name, username, avatar_path, rating) AS
    {'name': coalesce(name, ''), 'username': username, 'avatar_path': avatar_path, 'rating': CAST(rating AS BIGINT)};

-- Every review and every list a title is on, as an item of the title's paged `family` document
-- (/3/movie/{id}/reviews, /3/tv/{id}/lists, ...), in the language it is written in and in the
-- family's order (reviews oldest first; lists most favourited first).
CREATE OR REPLACE TEMP VIEW title_language_items AS
SELECT 'reviews' AS family, r.owner AS media, r.owner_id AS media_id, r.iso_639_1,
       row_number() OVER (PARTITION BY r.owner, r.owner_id, r.iso_639_1 ORDER BY r.created_at, r.id) - 1 AS ord,
       to_json({'author': r.author,
                'author_details': review_author(r.name, r.username, r.avatar_path, r.rating),
                'content': r.content,
                'created_at': tmdb_time(r.created_at),
                'id': r.id,
                'updated_at': tmdb_time(r.updated_at),
                'url': 'https://www.themoviedb.org/review/' || r.id}) AS item
FROM reviews r
UNION ALL
SELECT 'lists', i.owner, i.owner_id, l.iso_639_1,
       row_number() OVER (PARTITION BY i.owner, i.owner_id, l.iso_639_1 ORDER BY l.favorite_count DESC, l.id) - 1,
       to_json({'description': l.description, 'favorite_count': l.favorite_count, 'id': l.id,
                'item_count': c.n, 'iso_639_1': l.iso_639_1, 'list_type': 'movie', 'name': l.name,
                'poster_path': l.poster_path})
FROM (SELECT DISTINCT owner, owner_id, list_id FROM list_items) i
JOIN lists l ON l.id = i.list_id
JOIN (SELECT list_id, count(*) AS n FROM list_items GROUP BY list_id) c ON c.list_id = l.id;

-- A table macro for a title's `family` document of `media` ('movie' or 'tv'), every title's. TMDB
-- filters reviews and lists by `language`, as videos: the default document holds the default
-- language's, '.xx-YY' those in that served language (where the title has any), '.und' none. 20 a
-- page: page 1 at the plain uri, page n at '.page<n>' before the language suffix. `scoped`: films only
-- in scope (in_scope).
CREATE OR REPLACE TEMP MACRO title_pages(family_name, media_name, scoped) AS TABLE
WITH written AS (
    SELECT media_id, iso_639_1, ord, item FROM title_language_items
    WHERE family = family_name AND media = media_name AND (NOT scoped OR in_scope('movie', media_id))
),
totals AS (
    SELECT media_id, iso_639_1, count(*) AS total FROM written GROUP BY media_id, iso_639_1
),
titles AS (
    SELECT id FROM movies WHERE media_name = 'movie' AND (NOT scoped OR in_scope('movie', id))
    UNION ALL
    SELECT id FROM tv_series WHERE media_name = 'tv'
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
    '/3/' || media_name || '/' || p.media_id || '/' || family_name
        || CASE WHEN p.page = 1 THEN '' ELSE '.page' || p.page END || p.suffix AS uri,
    ({
        'id': p.media_id,
        'page': p.page,
        'results': coalesce(i.results, []::JSON[]),
        'total_pages': (p.total + 19) // 20,
        'total_results': p.total
    }) AS doc
FROM pages p
LEFT JOIN page_items i ON i.media_id = p.media_id AND i.iso_639_1 = p.iso_639_1 AND i.page = p.page
