-- 016_scrub_url_credentials: URLs stored with their credentials before every URL lost them on the way in (issue 26
-- §1, src/util/url-credentials.ts) lose them now, by the same rule: no user name, no password. The account's API
-- URL is public (dim_account, rpt_accounts, every report, serve's pages); the command lines and messages of earlier
-- runs kept `user:***@` (or, before redaction, the password itself). A stored API URL never had a query to scrub:
-- one was always refused.
update _meta_accounts
set api_url = regexp_replace(api_url, '^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@', '\1')
where api_url like '%@%';

update _meta_runs
set args = regexp_replace(args, '([A-Za-z][A-Za-z0-9+.-]*://)[^\s/?#"<>`]*@', '\1', 'g')
where args like '%://%@%';

update _meta_runs
set errors = regexp_replace(errors::varchar, '([A-Za-z][A-Za-z0-9+.-]*://)[^\s/?#"<>`]*@', '\1', 'g')::json
where errors::varchar like '%://%@%';

update _meta_runs
set summary = regexp_replace(summary::varchar, '([A-Za-z][A-Za-z0-9+.-]*://)[^\s/?#"<>`]*@', '\1', 'g')::json
where summary::varchar like '%://%@%';
