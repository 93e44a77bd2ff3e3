// Assigned practice (docs/assignments.md): a coach gives a scenario to people with a due date and a
// number of attempts; each person practises through a personal link, and the first of their
// meetings that ends completes their part (`assignment.completed`).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { Principal } from '../../core/http/principal.ts';
import { roleGrants } from '../../core/http/roles.ts';
import type { JobQueue } from '../../core/jobs/index.ts';
import type { EventEmitter } from '../events/emitter.ts';
import { JOB_NAMES } from '../job-names.ts';
import type { MeetingService } from '../meetings/service.ts';
import { peopleRepository } from '../people/repository.ts';
import { groupNames } from '../people/service.ts';
import { randomToken, tokenHash } from '../sessions/cookies.ts';
import { actingMember } from './acting-member.ts';
import { type AssignmentRow, assignmentRepository as repo, type TargetRow } from './repository.ts';

/** People one assignment reaches: a large team, yet one transaction of rows and e-mail jobs. */
export const MAX_PEOPLE = 500;

export type AssignmentStatus = 'not_started' | 'in_progress' | 'done' | 'overdue';

export interface AssignmentInput {
  scenario_id: string;
  person_ids?: string[];
  /** Everyone in these groups (docs/people.md) when the assignment is made. */
  groups?: string[];
  due_at?: string | null;
  max_attempts?: number;
  note?: string | null;
}

type Target = TargetRow & { person_name: string; person_email: string | null; attempts: number };

export function statusOf(
  target: { completed_at: Date | null; attempts: number },
  dueAt: Date | null,
  now: Date,
): AssignmentStatus {
  if (target.completed_at) return 'done';
  if (dueAt && new Date(dueAt) < now) return 'overdue';
  return target.attempts > 0 ? 'in_progress' : 'not_started';
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export class AssignmentService {
  constructor(
    private readonly deps: {
      db: Kysely<DB>;
      clock: Clock;
      secretBox: SecretBox;
      events: EventEmitter;
      meetings: Pick<MeetingService, 'create'>;
      jobs: Pick<JobQueue, 'enqueue'>;
      /** SMTP_URL is set: each person with an address is e-mailed their link. */
      mailConfigured: boolean;
      publicUrl: string;
    },
  ) {}

  practiceUrl(token: string) {
    return `${this.deps.publicUrl}/#/practice/${token}`;
  }

  /** `showLinks`: the personal links are credentials, shown to those who may assign (not viewers). */
  render(row: AssignmentRow & { scenario_name: string | null }, targets: Target[], showLinks: boolean) {
    const now = this.deps.clock.now();
    const people = targets.map((target) => ({
      person: { id: target.person_id, name: target.person_name, email: target.person_email },
      status: statusOf(target, row.due_at, now),
      attempts: target.attempts,
      completed_at: iso(target.completed_at),
      completed_meeting_id: target.completed_meeting_id,
      emailed_at: iso(target.emailed_at),
      practice_url: showLinks ? this.practiceUrl(this.deps.secretBox.open(target.token_sealed)) : null,
    }));
    const counts = { not_started: 0, in_progress: 0, done: 0, overdue: 0 };
    for (const person of people) counts[person.status] += 1;
    return {
      id: row.id,
      scenario: { id: row.scenario_id, name: row.scenario_name },
      due_at: iso(row.due_at),
      max_attempts: row.max_attempts,
      note: row.note,
      status_counts: counts,
      people,
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }

  /** `filter.status`: those with someone in it; `filter.person_id`: those given to that person. */
  async list(principal: Principal, filter: { status?: AssignmentStatus; person_id?: string } = {}) {
    const rows = await repo.list(this.deps.db, principal.accountId);
    const targets = await repo.targets(
      this.deps.db,
      principal.accountId,
      rows.map((row) => row.id),
    );
    const showLinks = roleGrants(principal.role, 'assignments:write');
    return rows
      .map((row) =>
        this.render(
          row,
          targets.filter((target) => target.assignment_id === row.id),
          showLinks,
        ),
      )
      .filter((assignment) =>
        // One person's part must match both filters: Kim's overdue part, not Kim and someone overdue.
        assignment.people.some(
          (part) =>
            (!filter.status || part.status === filter.status) &&
            (!filter.person_id || part.person.id === filter.person_id),
        ),
      );
  }

  async get(principal: Principal, id: string) {
    const row = isUuid(id) ? await repo.find(this.deps.db, principal.accountId, id) : undefined;
    if (!row) throw notFound('assignment', 'assignment_id');
    const targets = await repo.targets(this.deps.db, principal.accountId, [row.id]);
    return this.render(row, targets, roleGrants(principal.role, 'assignments:write'));
  }

  async create(principal: Principal, input: AssignmentInput) {
    const { db, clock, secretBox } = this.deps;
    const scenario = isUuid(input.scenario_id)
      ? (await repo.liveScenario(db, principal.accountId, input.scenario_id))?.id
      : undefined;
    if (!scenario)
      throw new AppError('parameter_invalid', 'No such scenario in this workspace.', {
        param: 'scenario_id',
      });
    const named = input.person_ids ?? [];
    const ids = [...new Set(named)];
    const bad = ids.findIndex((id) => !isUuid(id));
    const listed = bad >= 0 || ids.length === 0 ? [] : await repo.peopleOf(db, principal.accountId, ids);
    const missing = bad >= 0 ? bad : ids.findIndex((id) => !listed.some((person) => person.id === id));
    if (missing >= 0) {
      throw new AppError('parameter_invalid', 'No such person in this workspace.', {
        param: `person_ids[${named.indexOf(ids[missing]!)}]`,
      });
    }
    // Groups as people write them: tidied, matched ignoring case (people/service.ts groupNames).
    const groups = (input.groups ?? []).map((group) => groupNames([group])[0] ?? '');
    const members = await peopleRepository.inGroups(db, principal.accountId, groups.filter(Boolean));
    const empty = groups.findIndex(
      (group) =>
        !members.some((person) => person.groups.some((name) => name.toLowerCase() === group.toLowerCase())),
    );
    if (empty >= 0) {
      throw new AppError('parameter_invalid', 'No one is in this group.', { param: `groups[${empty}]` });
    }
    const people = [...listed, ...members.filter((member) => !ids.includes(member.id))];
    if (people.length === 0) {
      throw new AppError('parameter_missing', 'Name at least one person (person_ids) or group (groups).', {
        param: 'person_ids',
      });
    }
    if (people.length > MAX_PEOPLE) {
      throw new AppError(
        'parameter_invalid',
        `An assignment reaches at most ${MAX_PEOPLE} people; these hold ${people.length}: split it.`,
        { param: groups.length > 0 ? 'groups' : 'person_ids' },
      );
    }
    const now = clock.now();
    const id = randomUUID();
    await db.transaction().execute(async (tx) => {
      await repo.insert(tx, {
        id,
        account_id: principal.accountId,
        scenario_id: scenario,
        due_at: input.due_at ? new Date(input.due_at) : null,
        max_attempts: input.max_attempts ?? 1,
        note: input.note?.trim() || null,
        // A key's assignment is its creator's: their practice meetings belong to someone.
        created_by: principal.membershipId,
        created_at: now,
        updated_at: now,
      });
      const targets = people.map(({ id: personId }) => {
        const token = randomToken();
        return {
          id: randomUUID(),
          assignment_id: id,
          account_id: principal.accountId,
          person_id: personId,
          token_hash: tokenHash(token),
          token_sealed: secretBox.seal(token),
          completed_at: null,
          completed_meeting_id: null,
          created_at: now,
        };
      });
      await repo.insertTargets(tx, targets);
      if (this.deps.mailConfigured) {
        for (const target of targets) {
          if (people.find((person) => person.id === target.person_id)?.email) {
            await this.deps.jobs.enqueue(tx, JOB_NAMES.assignmentEmail, { target_id: target.id });
          }
        }
      }
    });
    return this.get(principal, id);
  }

  async update(
    principal: Principal,
    id: string,
    input: { due_at?: string | null; max_attempts?: number; note?: string | null },
  ) {
    await this.get(principal, id);
    await repo.update(this.deps.db, principal.accountId, id, {
      ...(input.due_at !== undefined ? { due_at: input.due_at ? new Date(input.due_at) : null } : {}),
      ...(input.max_attempts !== undefined ? { max_attempts: input.max_attempts } : {}),
      ...(input.note !== undefined ? { note: input.note?.trim() || null } : {}),
      updated_at: this.deps.clock.now(),
    });
    return this.get(principal, id);
  }

  async delete(principal: Principal, id: string) {
    if (!isUuid(id) || !(await repo.delete(this.deps.db, principal.accountId, id))) {
      throw notFound('assignment', 'assignment_id');
    }
  }

  /** What a personal link shows before starting: the scenario, who it is for, the attempts left. */
  async preview(token: string) {
    const target = await this.byToken(token);
    const now = this.deps.clock.now();
    return {
      scenario: { name: target.scenario_name },
      person: { name: target.person_name },
      note: target.note,
      due_at: iso(target.due_at),
      status: statusOf(target, target.due_at, now),
      attempts: target.attempts,
      attempts_left: Math.max(0, target.max_attempts - target.attempts),
    };
  }

  /** Starts one attempt: a meeting for the person on the scenario; its room URL, ready to open. */
  async start(token: string) {
    const target = await this.byToken(token);
    if (target.scenario_deleted_at) {
      throw new AppError(
        'resource_conflict',
        'This scenario was deleted: ask your coach for a new assignment.',
        {
          param: 'token',
        },
      );
    }
    return this.deps.db.transaction().execute(async (tx) => {
      if (!(await repo.lockTarget(tx, target.id))) {
        throw new AppError('resource_not_found', 'This practice link is not valid.', { param: 'token' });
      }
      const { count } = await repo.attempts(tx, target.id);
      if (count >= target.max_attempts) {
        throw new AppError(
          'resource_conflict',
          `All ${target.max_attempts} attempts are used: ask your coach for more.`,
          {
            param: 'token',
          },
        );
      }
      const meeting = await this.deps.meetings.create(
        actingMember(target.account_id, target.created_by, `assignment:${target.id}`),
        {
          scenario_id: target.scenario_id,
          person_id: target.person_id,
          meeting_type: 'end-user',
        },
        { tx, assignmentPersonId: target.id },
      );
      return {
        meeting_id: meeting.id,
        room_url: `${meeting.room_meeting_url}?t=${encodeURIComponent(meeting.room_token)}`,
      };
    });
  }

  /**
   * Called as a meeting is finalised (its `meeting.ended` emitted, in the same transaction): the
   * first meeting of a person's assignment to end completes it, with `assignment.completed`.
   */
  async completeWith(
    tx: Kysely<DB>,
    meeting: { id: string; scenario_id: string; assignment_person_id: string | null },
  ) {
    if (!meeting.assignment_person_id) return;
    const now = this.deps.clock.now();
    const done = await repo.complete(tx, meeting.assignment_person_id, meeting.id, now);
    if (!done) return;
    await this.deps.events.emit(tx, {
      accountId: done.account_id,
      event: 'assignment.completed',
      data: {
        meeting_id: meeting.id,
        scenario_id: meeting.scenario_id,
        assignment_id: done.assignment_id,
        person_id: done.person_id,
        completed_at: now.toISOString(),
      },
    });
  }

  private async byToken(token: string) {
    const target = await repo.byToken(this.deps.db, tokenHash(token));
    if (!target)
      throw new AppError('resource_not_found', 'This practice link is not valid.', { param: 'token' });
    return target;
  }
}
