-- Workspace retention (docs/meetings.md "Retention"): ended meetings older than this many days are
-- deleted by the retention sweep, exactly as DELETE /v1/meetings/{id} deletes them. Null keeps
-- them forever.
alter table accounts
  add column meeting_retention_days integer
    check (meeting_retention_days between 1 and 3650);

-- What the sweep scans: a workspace's ended meetings by the time they ended.
create index meetings_ended_idx on meetings (account_id, ended_at) where status = 'ended';
