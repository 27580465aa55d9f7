-- /3/person/{person_id}/tv_credits (person_credits_page.sql).
SELECT * FROM person_credits_page('tv')
