// The people who practise (docs/people.md): an identity per person in the workspace, made by the
// team or on a first meeting, linked from every meeting they take part in, with their history.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import { type PageQuery, type Paginator, positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import { goalKey, goalName, meetingAt } from '../analyses/goal-results.ts';
import { type PersonRow, peopleRepository as repo } from './repository.ts';

const LIST = 'people';

export interface PersonInput {
  name: string;
  email?: string | null;
  external_id?: string | null;
  groups?: string[];
}

/** Group names as a coach means them: trimmed, inner spaces collapsed, each once (any case); matched ignoring case. */
export function groupNames(names: string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of names) {
    const name = raw.trim().replace(/\s+/g, ' ');
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()];
}

/** How a meeting names its person: the first of these that is given decides. */
export interface PersonReference {
  person_id?: string;
  external_id?: string;
  email?: string | null;
  name?: string | null;
}

const trimmed = (value: string | null | undefined) => value?.trim() || null;

export class PeopleService {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; paginator: Paginator }) {}

  render(row: PersonRow, meetingCount?: number) {
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      external_id: row.external_id,
      groups: row.groups ?? [],
      ...(meetingCount === undefined ? {} : { meeting_count: meetingCount }),
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }

  /** The workspace's groups, each with how many people are in it. */
  groups(principal: Principal) {
    return repo.groups(this.deps.db, principal.accountId);
  }

  async list(
    principal: Principal,
    query: PageQuery & { email?: string; external_id?: string; q?: string; group?: string },
  ) {
    const { db, paginator } = this.deps;
    const page = paginator.parse(query, LIST, principal.accountId);
    const rows = await repo.list(db, principal.accountId, page, {
      email: query.email,
      externalId: query.external_id,
      q: query.q,
      group: query.group ? groupNames([query.group])[0] : undefined,
    });
    const counts = await repo.meetingCounts(
      db,
      principal.accountId,
      rows.map((row) => row.id),
    );
    const render = (row: PersonRow) => this.render(row, counts.get(row.id) ?? 0);
    if (!page) return rows.map(render);
    return paginator.page(rows, page, LIST, principal.accountId, positionOf, render);
  }

  async get(principal: Principal, id: string) {
    const row = await this.find(principal.accountId, id);
    const counts = await repo.meetingCounts(this.deps.db, principal.accountId, [row.id]);
    return this.render(row, counts.get(row.id) ?? 0);
  }

  async create(principal: Principal, input: PersonInput) {
    const now = this.deps.clock.now();
    const row = await this.unique(() =>
      repo.insert(this.deps.db, {
        id: randomUUID(),
        account_id: principal.accountId,
        name: input.name.trim(),
        email: trimmed(input.email)?.toLowerCase() ?? null,
        external_id: trimmed(input.external_id),
        groups: JSON.stringify(groupNames(input.groups ?? [])),
        created_at: now,
        updated_at: now,
      }),
    );
    return this.render(row, 0);
  }

  async update(principal: Principal, id: string, input: Partial<PersonInput>) {
    await this.find(principal.accountId, id);
    const row = await this.unique(() =>
      repo.update(this.deps.db, principal.accountId, id, {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.email !== undefined ? { email: trimmed(input.email)?.toLowerCase() ?? null } : {}),
        ...(input.external_id !== undefined ? { external_id: trimmed(input.external_id) } : {}),
        ...(input.groups !== undefined ? { groups: JSON.stringify(groupNames(input.groups)) } : {}),
        updated_at: this.deps.clock.now(),
      }),
    );
    if (!row) throw notFound('person', 'person_id');
    return this.get(principal, id);
  }

  /** Deletes the person; their meetings stay, no longer linked to anyone. */
  async delete(principal: Principal, id: string) {
    if (!isUuid(id) || !(await repo.delete(this.deps.db, principal.accountId, id))) {
      throw notFound('person', 'person_id');
    }
  }

  /**
   * The person a new meeting belongs to, found or made (in the meeting's transaction): by
   * `person_id` (which must be this workspace's), else by external id, else by e-mail, else by
   * name among people known by name only (when exactly one has it). A new person needs a name (or
   * takes the e-mail's local part). Returns null when nothing names anybody.
   */
  async resolve(tx: Kysely<DB>, accountId: string, ref: PersonReference): Promise<PersonRow | null> {
    if (ref.person_id !== undefined) {
      const row = isUuid(ref.person_id) ? await repo.find(tx, accountId, ref.person_id) : undefined;
      if (!row)
        throw new AppError('parameter_invalid', 'No such person in this workspace.', { param: 'person_id' });
      return row;
    }
    const externalId = trimmed(ref.external_id);
    const email = trimmed(ref.email)?.toLowerCase() ?? null;
    const name = trimmed(ref.name);
    const found =
      (externalId && (await repo.byExternalId(tx, accountId, externalId))) ||
      (email && (await repo.byEmail(tx, accountId, email))) ||
      (!externalId && !email && name ? await this.onlyByName(tx, accountId, name) : undefined);
    if (found) {
      // What the meeting adds to what we knew (an e-mail for someone known by id, say), unless
      // another person already has that address.
      const emailFree = email && !found.email && !(await repo.byEmail(tx, accountId, email));
      const missing = {
        ...(emailFree ? { email } : {}),
        ...(externalId && !found.external_id ? { external_id: externalId } : {}),
      };
      if (Object.keys(missing).length === 0) return found;
      return (
        (await repo.update(tx, accountId, found.id, { ...missing, updated_at: this.deps.clock.now() })) ??
        found
      );
    }
    if (!externalId && !email && !name) return null;
    const now = this.deps.clock.now();
    // A concurrent first meeting for the same address or id made the person first: theirs is used.
    return this.insertOrFind(tx, accountId, externalId, email, {
      id: randomUUID(),
      account_id: accountId,
      name: name ?? email?.split('@')[0] ?? externalId!,
      email,
      external_id: externalId,
      created_at: now,
      updated_at: now,
    });
  }

  private async insertOrFind(
    tx: Kysely<DB>,
    accountId: string,
    externalId: string | null,
    email: string | null,
    values: Parameters<typeof repo.insert>[1],
  ): Promise<PersonRow> {
    // ON CONFLICT DO NOTHING: a unique violation must not abort the meeting's transaction.
    const inserted = await repo.insertUnlessTaken(tx, values);
    if (inserted) return inserted;
    const found =
      (externalId && (await repo.byExternalId(tx, accountId, externalId))) ||
      (email && (await repo.byEmail(tx, accountId, email)));
    if (!found) throw new Error('a person was neither inserted nor found');
    return found;
  }

  /**
   * Their practice over time: every meeting (oldest first) with its scores, one series per goal,
   * and the feedback each analysis gave them.
   */
  async progress(principal: Principal, id: string) {
    const { db } = this.deps;
    const person = await this.get(principal, id);
    const meetings = await repo.meetings(db, principal.accountId, id);
    const analysisIds = meetings
      .map((meeting) => meeting.analysis_id)
      .filter((value): value is string => !!value);
    const results = await repo.goalResults(db, principal.accountId, analysisIds);
    const byAnalysis = new Map<string, typeof results>();
    for (const result of results) {
      byAnalysis.set(result.analysis_id, [...(byAnalysis.get(result.analysis_id) ?? []), result]);
    }
    type Point = { meeting_id: string; at: string; score: number; score_min: number; score_max: number };
    const goals = new Map<string, { goal_id: string | null; name: string; points: Point[] }>();
    const rendered = meetings.map((meeting) => {
      const at = meetingAt(meeting).toISOString();
      const goalResults = (meeting.analysis_id ? (byAnalysis.get(meeting.analysis_id) ?? []) : []).map(
        (result) => {
          const name = goalName(result);
          const key = goalKey(result);
          const series = goals.get(key) ?? { goal_id: result.goal_id, name, points: [] };
          series.points.push({
            meeting_id: meeting.id,
            at,
            score: result.score,
            score_min: result.score_min,
            score_max: result.score_max,
          });
          goals.set(key, series);
          return {
            goal_id: result.goal_id,
            name,
            score: result.score,
            score_min: result.score_min,
            score_max: result.score_max,
            feedback: result.feedback,
          };
        },
      );
      return {
        id: meeting.id,
        scenario: { id: meeting.scenario_id, name: meeting.scenario_name ?? null },
        status: meeting.status,
        at,
        duration_seconds: meeting.duration_seconds,
        analysis_status: meeting.analysis_status,
        average_score: meeting.average_score,
        summary: meeting.summary ?? null,
        goal_results: goalResults,
      };
    });
    return { person, meetings: rendered, goals: [...goals.values()] };
  }

  private async find(accountId: string, id: string) {
    const row = isUuid(id) ? await repo.find(this.deps.db, accountId, id) : undefined;
    if (!row) throw notFound('person', 'person_id');
    return row;
  }

  private async onlyByName(tx: Kysely<DB>, accountId: string, name: string) {
    const rows = await repo.byNameOnly(tx, accountId, name);
    return rows.length === 1 ? rows[0] : undefined;
  }

  /** A second person with the same e-mail or external id is a 409 naming the field. */
  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code !== '23505') throw error;
      const param = constraint?.includes('external') ? 'external_id' : 'email';
      throw new AppError(
        'duplicate',
        `Another person of this workspace has this ${param === 'email' ? 'e-mail address' : 'external id'}.`,
        {
          param,
        },
      );
    }
  }
}
