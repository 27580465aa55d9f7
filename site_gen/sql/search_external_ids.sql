-- Every external id /3/find resolves: (source, value) -> the title, person, season or episode, with
-- what finds its documents (a season's and an episode's series and numbers). Sources are TMDB's
-- external_source names; kinopoisk_id is ours (the catalogue carries it for films).
WITH ids AS (
    SELECT 'imdb_id' AS source, imdb_id AS value, 'movie' AS kind, id, NULL::BIGINT AS series_id,
           NULL::BIGINT AS season_number, NULL::BIGINT AS episode_number FROM movies
    UNION ALL SELECT 'wikidata_id', wikidata_id, 'movie', movie_id, NULL, NULL, NULL FROM movie_external_ids
    UNION ALL SELECT 'facebook_id', facebook_id, 'movie', movie_id, NULL, NULL, NULL FROM movie_external_ids
    UNION ALL SELECT 'instagram_id', instagram_id, 'movie', movie_id, NULL, NULL, NULL FROM movie_external_ids
    UNION ALL SELECT 'twitter_id', twitter_id, 'movie', movie_id, NULL, NULL, NULL FROM movie_external_ids
    UNION ALL SELECT 'kinopoisk_id', kinopoisk_id::VARCHAR, 'movie', movie_id, NULL, NULL, NULL FROM movie_external_ids
    UNION ALL SELECT 'imdb_id', imdb_id, 'person', id, NULL, NULL, NULL FROM people
    UNION ALL SELECT 'wikidata_id', wikidata_id, 'person', person_id, NULL, NULL, NULL FROM person_details
    UNION ALL SELECT 'facebook_id', facebook_id, 'person', person_id, NULL, NULL, NULL FROM person_details
    UNION ALL SELECT 'instagram_id', instagram_id, 'person', person_id, NULL, NULL, NULL FROM person_details
    UNION ALL SELECT 'twitter_id', twitter_id, 'person', person_id, NULL, NULL, NULL FROM person_details
    UNION ALL SELECT 'tiktok_id', tiktok_id, 'person', person_id, NULL, NULL, NULL FROM person_details
    UNION ALL SELECT 'youtube_id', youtube_id, 'person', person_id, NULL, NULL, NULL FROM person_details
    UNION ALL SELECT 'tvrage_id', tvrage_id::VARCHAR, 'person', person_id, NULL, NULL, NULL FROM person_details
    UNION ALL SELECT 'freebase_mid', freebase_mid, 'person', person_id, NULL, NULL, NULL FROM person_details
    UNION ALL SELECT 'freebase_id', freebase_id, 'person', person_id, NULL, NULL, NULL FROM person_details
    UNION ALL SELECT 'imdb_id', imdb_id, 'tv', id, NULL, NULL, NULL FROM tv_series
    UNION ALL SELECT 'tvdb_id', tvdb_id::VARCHAR, 'tv', id, NULL, NULL, NULL FROM tv_series
    UNION ALL SELECT 'wikidata_id', wikidata_id, 'tv', id, NULL, NULL, NULL FROM tv_series
    UNION ALL SELECT 'tvrage_id', tvrage_id::VARCHAR, 'tv', id, NULL, NULL, NULL FROM tv_series
    UNION ALL SELECT 'facebook_id', facebook_id, 'tv', id, NULL, NULL, NULL FROM tv_series
    UNION ALL SELECT 'instagram_id', instagram_id, 'tv', id, NULL, NULL, NULL FROM tv_series
    UNION ALL SELECT 'twitter_id', twitter_id, 'tv', id, NULL, NULL, NULL FROM tv_series
    UNION ALL SELECT 'tvdb_id', tvdb_id::VARCHAR, 'season', id, series_id, season_number, NULL FROM tv_seasons
    UNION ALL SELECT 'wikidata_id', wikidata_id, 'season', id, series_id, season_number, NULL FROM tv_seasons
    UNION ALL SELECT 'imdb_id', imdb_id, 'episode', id, series_id, season_number, episode_number FROM tv_episodes
    UNION ALL SELECT 'tvdb_id', tvdb_id::VARCHAR, 'episode', id, series_id, season_number, episode_number FROM tv_episodes
)
SELECT DISTINCT kind, id, source, value, series_id, season_number, episode_number
FROM ids WHERE value IS NOT NULL AND value <> '' AND in_search_scope(kind, id)
