-- /3/person/{person_id}/combined_credits: movie and TV items together, each with media_type
-- (person_credits_page.sql).
-- in_scope is applied inside person_credits_page; repeated so site_gen/scope.py sees it.
SELECT * FROM person_credits_page('combined') WHERE in_scope('person', doc.id)
