-- /3/tv/{series_id}: TMDB's tv-series-details document (en-US), keys in TMDB's order. The specials
-- season is listed in `seasons` but, like TMDB, not counted in number_of_seasons/_episodes.
-- last/next_episode_to_air come from the ids the generator derived against its reference date.
SELECT
    '/3/tv/' || s.id AS uri,
    encode(to_json({
        'adult': s.adult,
        'backdrop_path': s.backdrop_path,
        'created_by': coalesce(cb.created_by, []),
        'episode_run_time': s.episode_run_time,
        'first_air_date': s.first_air_date,
        'genres': coalesce(g.genres, []),
        'homepage': s.homepage,
        'id': s.id,
        'in_production': s.in_production,
        'languages': s.languages,
        'last_air_date': s.last_air_date,
        'last_episode_to_air': le.summary,
        'name': s.name,
        'next_episode_to_air': ne.summary,
        'networks': coalesce(n.networks, []),
        'number_of_episodes': coalesce(sl.number_of_episodes, 0),
        'number_of_seasons': coalesce(sl.number_of_seasons, 0),
        'origin_country': s.origin_country,
        'original_language': s.original_language,
        'original_name': s.original_name,
        'overview': s.overview,
        'popularity': s.popularity,
        'poster_path': s.poster_path,
        'production_companies': coalesce(pc.production_companies, []),
        'production_countries': coalesce(pn.production_countries, []),
        'seasons': coalesce(sl.seasons, []),
        'spoken_languages': coalesce(lg.spoken_languages, []),
        'status': s.status,
        'tagline': s.tagline,
        'type': s.type,
        'vote_average': s.vote_average,
        'vote_count': s.vote_count
    })) AS body
FROM tv_series s
LEFT JOIN series_created_by_lists cb ON cb.series_id = s.id
LEFT JOIN series_genre_lists g ON g.series_id = s.id
LEFT JOIN episode_summaries le ON le.episode_id = s.last_episode_id
LEFT JOIN episode_summaries ne ON ne.episode_id = s.next_episode_id
LEFT JOIN series_network_lists n ON n.series_id = s.id
LEFT JOIN series_season_lists sl ON sl.series_id = s.id
LEFT JOIN series_company_lists pc ON pc.series_id = s.id
LEFT JOIN series_country_lists pn ON pn.series_id = s.id
LEFT JOIN series_language_lists lg ON lg.series_id = s.id
