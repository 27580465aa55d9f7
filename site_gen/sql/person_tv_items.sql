-- Every series as the item of people's TV and combined credits and of similar series pages (TMDB's
-- series list fields, in the default language: tv_series_listed, site_gen/languages.py).
-- site_gen.person serialises and checks it once (documents.checked_items) as tv_credit_results(id,
-- json), the documents /_items/tv/{id}.
WITH genre_lists AS (
    SELECT series_id, list(genre_id ORDER BY ord) AS genre_ids FROM series_genres GROUP BY series_id
)
SELECT s.id,
       {
           'adult': s.adult, 'backdrop_path': s.backdrop_path,
           'genre_ids': coalesce(g.genre_ids, []), 'id': s.id,
           'origin_country': coalesce(s.origin_country, []),
           'original_language': s.original_language, 'original_name': s.original_name,
           'overview': s.overview, 'popularity': s.popularity, 'poster_path': s.poster_path,
           'first_air_date': coalesce(CAST(s.first_air_date AS VARCHAR), ''), 'name': s.name,  -- TMDB's "" for no date
           'vote_average': s.vote_average, 'vote_count': s.vote_count
       } AS item
FROM tv_series_listed s
LEFT JOIN genre_lists g ON g.series_id = s.id
