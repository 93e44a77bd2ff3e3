-- A goal result keeps the goal's definition (`goal`) when the goal is deleted; its goal_id then
-- becomes null, as documented for the standalone `GoalResults[]`.
alter table analysis_goal_results
  add constraint analysis_goal_results_goal_fk
  foreign key (goal_id) references goals (id) on delete set null;
