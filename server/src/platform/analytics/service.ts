// Team analytics (docs/analytics.md): per scenario and goal, the cohort's scores over time, each
// participant's progress, the completion of assigned practice, and every result as CSV.
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { Principal } from '../../core/http/principal.ts';
import { goalKey, goalName, percentOfRange } from '../analyses/goal-results.ts';
import { type AssignmentStatus, statusOf } from '../assignments/service.ts';
import { toCsv } from './csv.ts';
import { analyticsRepository as repo, type Window } from './repository.ts';

export type Interval = 'week' | 'month';

export interface WindowQuery {
  since?: string;
  until?: string;
}

/** The most goal results one report reads: beyond it, the caller narrows `since` and `until`. */
export const MAX_RESULTS = 100_000;

const DAY = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

const round = (value: number | null, digits: number) =>
  value === null || !Number.isFinite(value) ? null : Math.round(value * 10 ** digits) / 10 ** digits;
const mean = (values: number[]) =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/** The start of the UTC week (Monday) or month that `at` falls in. */
export function periodStart(at: Date, interval: Interval): Date {
  if (interval === 'month') return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  return new Date(day - ((at.getUTCDay() + 6) % 7) * DAY);
}

/** `since` and `until` as given: a date (UTC midnight; `until` takes the whole day) or a date-time. */
function parseWindow(query: WindowQuery): Window {
  const parse = (param: 'since' | 'until', value: string | undefined) => {
    if (value === undefined) return null;
    const time = DATE_ONLY.test(value) || DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
    if (!Number.isFinite(time)) {
      throw new AppError(
        'parameter_invalid',
        `Invalid ${param}: a date (2026-11-01) or a date-time (2026-11-01T09:00:00Z) is expected.`,
        { param },
      );
    }
    return new Date(param === 'until' && DATE_ONLY.test(value) ? time + DAY : time);
  };
  const window = { since: parse('since', query.since), until: parse('until', query.until) };
  if (window.since && window.until && window.until <= window.since) {
    throw new AppError('parameter_invalid', 'until must be later than since.', { param: 'until' });
  }
  return window;
}

type AssignmentCounts = Record<AssignmentStatus, number> & { total: number; completion_rate: number | null };

function countStatuses(statuses: AssignmentStatus[]): AssignmentCounts {
  const counts = { not_started: 0, in_progress: 0, done: 0, overdue: 0 };
  for (const status of statuses) counts[status] += 1;
  const total = statuses.length;
  return { total, ...counts, completion_rate: total === 0 ? null : round(counts.done / total, 4) };
}

type ResultRow = Awaited<ReturnType<typeof repo.goalResults>>[number];
type TargetRow = Awaited<ReturnType<typeof repo.assignmentTargets>>[number];

/** One analysed meeting and its goal results, in scoring order. */
interface ScoredMeeting {
  id: string;
  at: Date;
  person_id: string | null;
  results: ResultRow[];
  /** The mean of its goal results as percents of their ranges. */
  percent: number | null;
}

function byMeeting(rows: ResultRow[]): ScoredMeeting[] {
  const meetings = new Map<string, ScoredMeeting>();
  for (const row of rows) {
    const meeting = meetings.get(row.meeting_id) ?? {
      id: row.meeting_id,
      at: new Date(row.at),
      person_id: row.person_id,
      results: [],
      percent: null,
    };
    meeting.results.push(row);
    meetings.set(row.meeting_id, meeting);
  }
  for (const meeting of meetings.values()) {
    meeting.percent = mean(
      meeting.results
        .map((row) => percentOfRange(row.score, row.score_min, row.score_max))
        .filter((value): value is number => value !== null),
    );
  }
  return [...meetings.values()];
}

export class AnalyticsService {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock }) {}

  /** Every live scenario with its analysed meetings, participants, average and assignment counts. */
  async scenarios(principal: Principal) {
    const { db, clock } = this.deps;
    const [rows, targets] = await Promise.all([
      repo.scenarioOverview(db, principal.accountId),
      repo.assignmentTargets(db, principal.accountId),
    ]);
    const now = clock.now();
    const statuses = new Map<string, AssignmentStatus[]>();
    for (const target of targets) {
      const list = statuses.get(target.scenario_id) ?? [];
      list.push(statusOf(target, target.due_at, now));
      statuses.set(target.scenario_id, list);
    }
    return rows
      .map((row) => ({
        scenario: { id: row.id, name: row.name },
        meetings: row.meetings,
        participants: row.participants,
        average_percent: round(row.average_percent, 1),
        last_meeting_at: iso(row.last_meeting_at),
        assignments: countStatuses(statuses.get(row.id) ?? []),
      }))
      .sort(
        (a, b) =>
          (b.last_meeting_at ?? '').localeCompare(a.last_meeting_at ?? '') ||
          a.scenario.name.localeCompare(b.scenario.name),
      );
  }

  /** One scenario's cohort: each goal's scores per period, each participant's progress, assignments. */
  async scenario(principal: Principal, id: string, query: WindowQuery & { interval?: Interval }) {
    const interval = query.interval ?? 'week';
    const { scenario, window, rows } = await this.results(principal, id, query);
    const meetings = byMeeting(rows);
    const targets = await repo.assignmentTargets(this.deps.db, principal.accountId, scenario.id);
    const now = this.deps.clock.now();
    return {
      scenario: { id: scenario.id, name: scenario.name, deleted: scenario.deleted_at !== null },
      interval,
      since: iso(window.since),
      until: iso(window.until),
      summary: {
        meetings: meetings.length,
        participants: new Set(meetings.map((m) => m.person_id).filter(Boolean)).size,
        meetings_without_person: meetings.filter((m) => !m.person_id).length,
        average_percent: round(
          mean(meetings.map((m) => m.percent).filter((value): value is number => value !== null)),
          1,
        ),
        last_meeting_at: iso(meetings.at(-1)?.at ?? null),
      },
      goals: this.goalSeries(rows, interval),
      participants: this.participants(meetings, targets, now),
      assignments: countStatuses(targets.map((target) => statusOf(target, target.due_at, now))),
    };
  }

  /** Every goal result of the scenario in the window as CSV: a file name and its text. */
  async csv(principal: Principal, id: string, query: WindowQuery) {
    const { scenario, rows } = await this.results(principal, id, query);
    const header = [
      'meeting_id',
      'meeting_at',
      'person_id',
      'person_name',
      'person_email',
      'person_external_id',
      'goal_id',
      'goal',
      'score',
      'score_min',
      'score_max',
      'feedback',
    ];
    const body = toCsv([
      header,
      ...rows.map((row) => [
        row.meeting_id,
        new Date(row.at).toISOString(),
        row.person_id,
        row.person_name,
        row.person_email,
        row.person_external_id,
        row.goal_id,
        goalName(row),
        row.score,
        row.score_min,
        row.score_max,
        row.feedback,
      ]),
    ]);
    const slug =
      scenario.name
        .normalize('NFKD')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 60) || 'scenario';
    const day = this.deps.clock.now().toISOString().slice(0, 10);
    return { filename: `${slug}-results-${day}.csv`, body };
  }

  private async results(principal: Principal, id: string, query: WindowQuery) {
    const window = parseWindow(query);
    const scenario = isUuid(id) ? await repo.scenario(this.deps.db, principal.accountId, id) : undefined;
    if (!scenario) throw notFound('scenario', 'scenario_id');
    const rows = await repo.goalResults(
      this.deps.db,
      principal.accountId,
      scenario.id,
      window,
      MAX_RESULTS + 1,
    );
    if (rows.length > MAX_RESULTS) {
      throw new AppError(
        'parameter_invalid',
        `More than ${MAX_RESULTS} goal results: narrow the window with since and until.`,
        { param: 'since' },
      );
    }
    return { scenario, window, rows };
  }

  /** Per goal (first scored first): its latest scale and its scores per period, on that scale. */
  private goalSeries(rows: ResultRow[], interval: Interval) {
    type Period = { start: number; scores: number[] };
    const goals = new Map<
      string,
      {
        goal_id: string | null;
        name: string;
        score_min: number;
        score_max: number;
        position: number;
        periods: Map<number, Period>;
      }
    >();
    for (const row of rows) {
      const key = goalKey(row);
      const goal = goals.get(key) ?? {
        goal_id: row.goal_id,
        name: goalName(row),
        score_min: row.score_min,
        score_max: row.score_max,
        position: row.position,
        periods: new Map(),
      };
      // Rows come oldest first: the goal's scale and name are its latest.
      goal.name = goalName(row);
      goal.score_min = row.score_min;
      goal.score_max = row.score_max;
      const start = periodStart(new Date(row.at), interval).getTime();
      const period = goal.periods.get(start) ?? { start, scores: [] };
      period.scores.push(row.score);
      goal.periods.set(start, period);
      goals.set(key, goal);
    }
    return [...goals.values()]
      .sort((a, b) => a.position - b.position)
      .map((goal) => {
        const all = [...goal.periods.values()].flatMap((period) => period.scores);
        return {
          goal_id: goal.goal_id,
          name: goal.name,
          score_min: goal.score_min,
          score_max: goal.score_max,
          meetings: all.length,
          average: round(mean(all), 2),
          series: [...goal.periods.values()]
            .sort((a, b) => a.start - b.start)
            .map((period) => ({
              period_start: new Date(period.start).toISOString(),
              meetings: period.scores.length,
              average: round(mean(period.scores), 2)!,
              min: Math.min(...period.scores),
              max: Math.max(...period.scores),
            })),
        };
      });
  }

  /**
   * Everyone with an analysed meeting in the window or assigned the scenario: their first and
   * latest meeting's average (percent of range), the change between them, their latest score per
   * goal, and the status of their newest assignment of the scenario.
   */
  private participants(meetings: ScoredMeeting[], targets: TargetRow[], now: Date) {
    type Person = { id: string; name: string; email: string | null; external_id: string | null };
    const people = new Map<
      string,
      { person: Person; meetings: ScoredMeeting[]; status: AssignmentStatus | null }
    >();
    const entry = (person: Person) => {
      const found = people.get(person.id) ?? { person, meetings: [], status: null };
      people.set(person.id, found);
      return found;
    };
    for (const meeting of meetings) {
      const row = meeting.results[0]!;
      if (!meeting.person_id) continue;
      entry({
        id: meeting.person_id,
        name: row.person_name ?? 'Unknown',
        email: row.person_email,
        external_id: row.person_external_id,
      }).meetings.push(meeting);
    }
    // Oldest assignment first: the newest one's status is the one kept.
    for (const target of targets) {
      entry({
        id: target.person_id,
        name: target.person_name,
        email: target.person_email,
        external_id: target.person_external_id,
      }).status = statusOf(target, target.due_at, now);
    }
    return [...people.values()]
      .map(({ person, meetings: own, status }) => {
        const first = own[0];
        const latest = own.at(-1);
        const latestScores = new Map<string, ResultRow>();
        for (const meeting of own) for (const row of meeting.results) latestScores.set(goalKey(row), row);
        return {
          person,
          meetings: own.length,
          first_average_percent: round(first?.percent ?? null, 1),
          latest_average_percent: round(latest?.percent ?? null, 1),
          change_points:
            own.length > 1 && first?.percent != null && latest?.percent != null
              ? round(latest.percent - first.percent, 1)
              : null,
          last_meeting_at: iso(latest?.at ?? null),
          latest_scores: [...latestScores.values()]
            .sort((a, b) => a.position - b.position)
            .map((row) => ({
              goal_id: row.goal_id,
              name: goalName(row),
              score: row.score,
              score_min: row.score_min,
              score_max: row.score_max,
            })),
          assignment_status: status,
        };
      })
      .sort((a, b) => a.person.name.localeCompare(b.person.name) || a.person.id.localeCompare(b.person.id));
  }
}
