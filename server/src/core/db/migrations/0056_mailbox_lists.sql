-- Allow lists beside block lists, for receiving (the sender) and sending (each recipient), at
-- namespace, pod and inbox level (docs/mailbox.md, "Allow and block lists"). The block list's table
-- becomes the table of both lists; its rows stay what they were: receive block entries.
alter table mailbox_block_entries rename to mailbox_list_entries;

alter table mailbox_list_entries
  add column list text not null default 'block' check (list in ('allow', 'block'));
alter table mailbox_list_entries alter column list drop default;
alter table mailbox_list_entries
  add column direction text not null default 'receive' check (direction in ('receive', 'send'));
-- The level: inbox (inbox_id set), pod (pod_id set), namespace (neither).
alter table mailbox_list_entries
  add column pod_id text references mailbox_pods (id) on delete cascade;
alter table mailbox_list_entries
  add constraint mailbox_list_entries_one_level check (pod_id is null or inbox_id is null);

-- One value once per list, direction and level. It also serves the check of an address (namespace,
-- direction and the address with its domains), which runs with every received message and send.
drop index mailbox_block_entries_value_idx;
create unique index mailbox_list_entries_value_idx
  on mailbox_list_entries (namespace_id, direction, value, list, coalesce(pod_id, ''), coalesce(inbox_id, ''));

-- A level's entries, newest first (the list routes), and whether a level has an allow list at all.
create index mailbox_list_entries_level_idx
  on mailbox_list_entries (namespace_id, pod_id, inbox_id, list, direction, created_at desc, id desc);
