-- /3/person/{person_id}/tv_credits (person_credits_page.sql).
-- in_scope is applied inside person_credits_page; repeated so site_gen/scope.py sees it.
SELECT * FROM person_credits_page('tv') WHERE in_scope('person', doc.id)
