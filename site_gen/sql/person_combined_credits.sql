-- /3/person/{person_id}/combined_credits: movie and TV items together, each with media_type
-- (person_credits_page.sql).
SELECT * FROM person_credits_page('combined')
