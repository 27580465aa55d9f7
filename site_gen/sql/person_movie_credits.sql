-- /3/person/{person_id}/movie_credits (person_credits_page.sql).
SELECT * FROM person_credits_page('movie')
