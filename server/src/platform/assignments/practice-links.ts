// A public scenario's reusable practice link (docs/assignments.md, "Open practice links"): one link
// per scenario, made by a coach or author, that anyone may open. The visitor gives a name (and an
// e-mail, optionally) and each visit starts a meeting of its own. The link works only while the
// scenario is public and not deleted; making it again replaces the token, deleting it closes it.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { Principal } from '../../core/http/principal.ts';
import { roleGrants } from '../../core/http/roles.ts';
import type { MeetingService } from '../meetings/service.ts';
import { peopleRepository } from '../people/repository.ts';
import { randomToken, tokenHash } from '../sessions/cookies.ts';
import { actingMember } from './acting-member.ts';
import { practiceLinkRepository as repo } from './link-repository.ts';

export interface VisitorInput {
  name: string;
  email?: string | null;
}

const closed = () =>
  new AppError('resource_not_found', 'This practice link is not open: ask for a new one.', {
    param: 'token',
  });

export class PracticeLinkService {
  constructor(
    private readonly deps: {
      db: Kysely<DB>;
      clock: Clock;
      secretBox: SecretBox;
      meetings: Pick<MeetingService, 'create'>;
      publicUrl: string;
    },
  ) {}

  /** `showLink`: the link is a credential, shown to those who may give practice out (not viewers). */
  private render(
    row: { scenario_id: string; token_sealed: string; created_at: Date | string },
    showLink = true,
  ) {
    return {
      scenario_id: row.scenario_id,
      url: showLink ? `${this.deps.publicUrl}/#/try/${this.deps.secretBox.open(row.token_sealed)}` : null,
      created_at: new Date(row.created_at).toISOString(),
    };
  }

  private async scenario(principal: Principal, id: string) {
    const row = isUuid(id) ? await repo.scenario(this.deps.db, principal.accountId, id) : undefined;
    if (!row) throw notFound('scenario', 'scenario_id');
    return row;
  }

  /** The link, or null when the scenario has none (a normal state, not an error for the page). */
  async get(principal: Principal, scenarioId: string) {
    await this.scenario(principal, scenarioId);
    const link = await repo.find(this.deps.db, principal.accountId, scenarioId);
    return link ? this.render(link, roleGrants(principal.role, 'assignments:write')) : null;
  }

  /** Makes the link, or replaces it with a new one (whoever has the old link loses it). */
  async create(principal: Principal, scenarioId: string) {
    const scenario = await this.scenario(principal, scenarioId);
    if (scenario.visibility !== 'public') {
      throw new AppError(
        'resource_conflict',
        'Only a public scenario has an open practice link: set its visibility to public first.',
        { param: 'visibility' },
      );
    }
    const token = randomToken();
    const link = await repo.upsert(this.deps.db, {
      scenario_id: scenarioId,
      account_id: principal.accountId,
      token_hash: tokenHash(token),
      token_sealed: this.deps.secretBox.seal(token),
      created_by: principal.membershipId,
      created_at: this.deps.clock.now(),
    });
    return this.render(link);
  }

  async delete(principal: Principal, scenarioId: string) {
    await this.scenario(principal, scenarioId);
    if (!(await repo.delete(this.deps.db, principal.accountId, scenarioId))) {
      throw new AppError('resource_not_found', 'This scenario has no open practice link.', {
        param: 'scenario_id',
      });
    }
  }

  private async open(token: string) {
    const link = await repo.byToken(this.deps.db, tokenHash(token));
    if (!link) throw closed();
    return link;
  }

  /** What the link shows before the visitor gives their name. */
  async preview(token: string) {
    const link = await this.open(token);
    return {
      scenario: { name: link.scenario_name, description: link.scenario_description },
      persona: link.persona_name
        ? { name: link.persona_name, job_title: link.persona_job_title ?? '' }
        : null,
    };
  }

  /**
   * A visit: a meeting for the visitor. An address typed into a public form proves nothing: it
   * finds the visitor again among the people open links made (`open_link_email`), and is kept on
   * the meeting, but it is never a person's `email`, so it neither joins the history of someone
   * the team made nor takes their address. With a name alone the visitor is new each time.
   */
  async start(token: string, visitor: VisitorInput) {
    const name = visitor.name.trim();
    if (!name) throw new AppError('parameter_invalid', 'Say who is practising.', { param: 'name' });
    const email = visitor.email?.trim().toLowerCase() || null;
    const link = await this.open(token);
    return this.deps.db.transaction().execute(async (tx) => {
      const returning = email
        ? await peopleRepository.byOpenLinkEmail(tx, link.account_id, email)
        : undefined;
      const personId = returning?.id ?? (await this.newPerson(tx, link.account_id, name, email));
      const meeting = await this.deps.meetings.create(
        actingMember(link.account_id, link.created_by, `practice-link:${link.scenario_id}`),
        {
          scenario_id: link.scenario_id,
          person_id: personId,
          person_name: name,
          ...(email ? { person_email: email } : {}),
          meeting_type: 'end-user',
        },
        { tx },
      );
      return {
        meeting_id: meeting.id,
        room_url: `${meeting.room_meeting_url}?t=${encodeURIComponent(meeting.room_token)}`,
      };
    });
  }

  private async newPerson(tx: Kysely<DB>, accountId: string, name: string, email: string | null) {
    const now = this.deps.clock.now();
    const person = await peopleRepository.insert(tx, {
      id: randomUUID(),
      account_id: accountId,
      name,
      email: null,
      external_id: null,
      from_open_link: true,
      open_link_email: email,
      created_at: now,
      updated_at: now,
    });
    return person.id;
  }
}
