// How a scored goal is followed over time, shared by a person's progress (people) and a scenario's
// cohort (analytics): the goal's name as it was scored, the key that joins one goal's results
// across meetings, when a meeting counts as having taken place, and a score as a share of its range.

interface ScoredGoal {
  goal_id: string | null;
  goal: unknown;
}

/** The goal's name in the snapshot it was scored with (a renamed goal keeps its old results' name). */
export const goalName = (result: Pick<ScoredGoal, 'goal'>): string =>
  String((result.goal as { name?: unknown } | null)?.name ?? 'Goal');

/** One goal across meetings: by its id, or by its name when the goal was deleted since. */
export const goalKey = (result: ScoredGoal): string => result.goal_id ?? `name:${goalName(result)}`;

/** When a meeting took place: when it ended, else started, else was created. */
export const meetingAt = (meeting: {
  ended_at: Date | string | null;
  started_at: Date | string | null;
  created_at: Date | string;
}): Date => new Date(meeting.ended_at ?? meeting.started_at ?? meeting.created_at);

/** `score` as a percent of its goal's range (`score_min` 0 %, `score_max` 100 %); null for an empty range. */
export function percentOfRange(score: number, scoreMin: number, scoreMax: number): number | null {
  if (!(scoreMax > scoreMin)) return null;
  return ((score - scoreMin) / (scoreMax - scoreMin)) * 100;
}
