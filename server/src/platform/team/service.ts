// A workspace is a team (docs/teams.md): its members and their roles, invitations by link or
// e-mail, and the rules that keep a workspace governable (the last owner stays; nobody raises
// anyone above themselves).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { SecretBox } from '../../core/crypto/secret-box.ts';
import type { DB } from '../../core/db/schema.ts';
import { insufficientRole } from '../../core/http/auth.ts';
import { AppError } from '../../core/http/errors.ts';
import type { Principal } from '../../core/http/principal.ts';
import { type Role, roleGrants, roleRank } from '../../core/http/roles.ts';
import type { JobQueue } from '../../core/jobs/index.ts';
import { JOB_NAMES } from '../job-names.ts';
import { randomToken, tokenHash } from '../sessions/cookies.ts';
import type { AuditLog } from './audit.ts';
import { type InvitationRow, invitationRepository, memberRepository } from './repository.ts';

/** How long an invitation link works. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface TeamDeps {
  db: Kysely<DB>;
  clock: Clock;
  secretBox: SecretBox;
  jobs: JobQueue;
  audit: AuditLog;
  publicUrl: string;
  /** Whether SMTP_URL is set: invitations are then e-mailed as well as shown as a link. */
  mailConfigured: boolean;
  /** The password account with this address, if any (identity's): it accepts by its password. */
  localUserId: (email: string) => Promise<string | null>;
  /**
   * Told the lookup hashes of a member's API keys when the member is removed or their role changes:
   * every instance drops its cached verification, so the keys stop working or take the new role at once.
   */
  keysChanged: (lookupHashes: string[]) => Promise<void>;
}

type MemberRow = NonNullable<Awaited<ReturnType<typeof memberRepository.find>>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const memberNotFound = () =>
  new AppError('resource_not_found', 'No such member in this workspace.', { param: 'member_id' });
const invitationNotFound = () =>
  new AppError('resource_not_found', 'No such invitation.', { param: 'invitation_id' });

export function invitationStatus(row: InvitationRow, now: Date) {
  if (row.accepted_at) return 'accepted' as const;
  if (row.revoked_at) return 'revoked' as const;
  if (new Date(row.expires_at) <= now) return 'expired' as const;
  return 'pending' as const;
}

export class TeamService {
  constructor(private readonly deps: TeamDeps) {}

  renderMember(row: MemberRow, principal: Principal) {
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role as Role,
      joined_at: new Date(row.created_at).toISOString(),
      is_you: row.id === principal.membershipId,
    };
  }

  async listMembers(principal: Principal) {
    const rows = await memberRepository.list(this.deps.db, principal.accountId);
    return rows.map((row) => this.renderMember(row, principal));
  }

  async getMember(principal: Principal, memberId: string) {
    return this.renderMember(await this.findMember(principal, memberId), principal);
  }

  /** Owners may set any role; admins any role but owner, and never on an owner. */
  async changeRole(principal: Principal, memberId: string, role: Role) {
    const { db, audit } = this.deps;
    let keys: Array<{ lookup_hash: string }> = [];
    const member = await db.transaction().execute(async (tx) => {
      const target = await this.findMember(principal, memberId, tx);
      const from = target.role as Role;
      this.assertOutranks(principal, from, role);
      if (
        from === 'owner' &&
        role !== 'owner' &&
        (await memberRepository.ownerCount(tx, principal.accountId)) <= 1
      ) {
        throw lastOwner();
      }
      if (from !== role) {
        await memberRepository.setRole(tx, principal.accountId, target.id, role);
        keys = await memberRepository.keyHashesOf(tx, principal.accountId, target.id);
        await audit.record(
          principal,
          { action: 'member.role_changed', target: describe(target), details: { from, to: role } },
          tx,
        );
      }
      return this.renderMember({ ...target, role }, principal);
    });
    await this.deps.keysChanged(keys.map((key) => key.lookup_hash));
    return member;
  }

  /**
   * Removes a member, or lets a member leave (any role may leave). Their sessions end and their API
   * keys stop working; what they authored stays with the workspace.
   */
  async removeMember(principal: Principal, memberId: string) {
    const { db, audit } = this.deps;
    const leaving = memberId === principal.membershipId;
    if (!leaving && !roleGrants(principal.role, 'members:write'))
      throw insufficientRole(principal, 'members:write');
    const hashes = await db.transaction().execute(async (tx) => {
      const target = await this.findMember(principal, memberId, tx);
      if (!leaving) this.assertOutranks(principal, target.role as Role, target.role as Role);
      if (target.role === 'owner' && (await memberRepository.ownerCount(tx, principal.accountId)) <= 1) {
        throw lastOwner();
      }
      const keys = await memberRepository.keyHashesOf(tx, principal.accountId, target.id);
      // Recorded before the delete, while the actor (who may be the one leaving) still has a name.
      await audit.record(
        principal,
        {
          action: leaving ? 'member.left' : 'member.removed',
          target: describe(target),
          details: { role: target.role, api_keys_removed: keys.length },
        },
        tx,
      );
      await memberRepository.delete(tx, principal.accountId, target.id);
      return keys.map((key) => key.lookup_hash);
    });
    await this.deps.keysChanged(hashes);
  }

  renderInvitation(row: InvitationRow, inviters: Map<string, string>, url?: string) {
    return {
      id: row.id,
      email: row.email,
      role: row.role as Role,
      status: invitationStatus(row, this.deps.clock.now()),
      invited_by: row.invited_by ? (inviters.get(row.invited_by) ?? null) : null,
      emailed: row.emailed,
      created_at: new Date(row.created_at).toISOString(),
      expires_at: new Date(row.expires_at).toISOString(),
      accepted_at: row.accepted_at ? new Date(row.accepted_at).toISOString() : null,
      ...(url ? { url } : {}),
    };
  }

  async listInvitations(principal: Principal) {
    const rows = await invitationRepository.list(this.deps.db, principal.accountId);
    const inviters = await this.inviterNames(principal.accountId, rows);
    return rows.map((row) => this.renderInvitation(row, inviters));
  }

  /**
   * Invites an address with a role. The link is returned once (only its token's hash is stored);
   * with SMTP configured it is also e-mailed. A new invitation replaces an open one to the same address.
   */
  async invite(principal: Principal, input: { email: string; role: Role }) {
    const { db, clock, audit, jobs, secretBox } = this.deps;
    this.assertOutranks(principal, input.role, input.role);
    const email = input.email.trim().toLowerCase();
    if (await memberRepository.byEmail(db, principal.accountId, email)) {
      throw new AppError('duplicate', `${email} is already a member of this workspace.`, { param: 'email' });
    }
    const token = randomToken();
    const url = `${this.deps.publicUrl}/#/invitations/${token}`;
    const now = clock.now();
    const row = await db.transaction().execute(async (tx) => {
      await invitationRepository.revokePendingFor(tx, principal.accountId, email, now);
      const inserted = await invitationRepository.insert(tx, {
        id: randomUUID(),
        account_id: principal.accountId,
        email,
        role: input.role,
        token_hash: tokenHash(token),
        invited_by: principal.membershipId,
        emailed: this.deps.mailConfigured,
        created_at: now,
        expires_at: new Date(now.getTime() + INVITATION_LIFETIME_MS),
        accepted_at: null,
        revoked_at: null,
      });
      if (this.deps.mailConfigured) {
        // The link is a credential: sealed in the job's payload, like every secret at rest.
        await jobs.enqueue(tx, JOB_NAMES.invitationEmail, {
          invitation_id: inserted.id,
          url: secretBox.seal(url),
        });
      }
      await audit.record(
        principal,
        { action: 'member.invited', target: email, details: { role: input.role } },
        tx,
      );
      return inserted;
    });
    return this.renderInvitation(row, await this.inviterNames(principal.accountId, [row]), url);
  }

  async revokeInvitation(principal: Principal, invitationId: string) {
    const { db, clock, audit } = this.deps;
    const existing = UUID.test(invitationId)
      ? await invitationRepository.find(db, principal.accountId, invitationId)
      : undefined;
    if (!existing) throw invitationNotFound();
    this.assertOutranks(principal, existing.role as Role, existing.role as Role);
    const row = await invitationRepository.revoke(db, principal.accountId, invitationId, clock.now());
    if (!row) {
      throw new AppError(
        'resource_conflict',
        `This invitation is already ${invitationStatus(existing, clock.now())}.`,
        {
          param: 'invitation_id',
        },
      );
    }
    await audit.record(principal, {
      action: 'invitation.revoked',
      target: row.email,
      details: { role: row.role },
    });
    return this.renderInvitation(row, await this.inviterNames(principal.accountId, [row]));
  }

  /** What the invitation page shows before accepting (the link's token is the credential). */
  async preview(token: string) {
    const row = await invitationRepository.byToken(this.deps.db, tokenHash(token));
    if (!row)
      throw new AppError('resource_not_found', 'This invitation link is not valid.', { param: 'token' });
    const inviters = await this.inviterNames(row.account_id, [row]);
    return {
      workspace: { id: row.account_id, name: row.account_name },
      email: row.email,
      role: row.role as Role,
      status: invitationStatus(row, this.deps.clock.now()),
      invited_by: row.invited_by ? (inviters.get(row.invited_by) ?? null) : null,
      expires_at: new Date(row.expires_at).toISOString(),
      has_account: (await this.deps.localUserId(row.email)) !== null,
    };
  }

  /**
   * Adds `userId` to the invitation's workspace with its role, once: the link then stops working.
   * `db` is the caller's transaction when the user is created in the same breath.
   */
  async accept(
    token: string,
    user: { id: string; name: string; email: string },
    db: Kysely<DB> = this.deps.db,
  ) {
    const { clock } = this.deps;
    const now = clock.now();
    const found = await invitationRepository.byToken(db, tokenHash(token));
    if (!found)
      throw new AppError('resource_not_found', 'This invitation link is not valid.', { param: 'token' });
    if (await memberRepository.isMember(db, found.account_id, user.id)) {
      throw new AppError('duplicate', `You are already a member of ${found.account_name}.`, {
        param: 'token',
      });
    }
    const row = await invitationRepository.accept(db, found.id, now);
    if (!row) {
      throw new AppError(
        'resource_conflict',
        `This invitation is ${invitationStatus(found, now)}; ask for a new one.`,
        {
          param: 'token',
        },
      );
    }
    const membershipId = randomUUID();
    await memberRepository.insert(db, {
      id: membershipId,
      account_id: row.account_id,
      user_id: user.id,
      role: row.role,
      created_at: now,
    });
    const joined: Principal = {
      kind: 'user',
      accountId: row.account_id,
      membershipId,
      role: row.role as Role,
      userId: user.id,
      apiKeyId: null,
      scopes: null,
      subject: `user:${membershipId}`,
    };
    await this.deps.audit.record(
      joined,
      {
        action: 'member.joined',
        target: `${user.name} <${user.email}>`,
        details: { role: row.role, invited: row.email },
      },
      db,
    );
    return { accountId: row.account_id, membershipId, userId: user.id };
  }

  private async findMember(principal: Principal, memberId: string, db: Kysely<DB> = this.deps.db) {
    if (!UUID.test(memberId)) throw memberNotFound();
    const row = await memberRepository.find(db, principal.accountId, memberId);
    if (!row) throw memberNotFound();
    return row;
  }

  /** The actor must rank at least as high as the role they touch and the role they give. */
  private assertOutranks(principal: Principal, current: Role, next: Role) {
    const mine = roleRank(principal.role);
    if (roleRank(current) > mine || roleRank(next) > mine) {
      throw new AppError(
        'insufficient_role',
        `An ${principal.role} cannot change or grant the ${roleRank(current) > mine ? current : next} role; ask an owner.`,
        { param: 'role' },
      );
    }
  }

  private async inviterNames(accountId: string, rows: InvitationRow[]) {
    const ids = [...new Set(rows.map((row) => row.invited_by).filter((id): id is string => id !== null))];
    const names = await memberRepository.names(this.deps.db, accountId, ids);
    return new Map(names.map((row) => [row.id, row.name]));
  }
}

const describe = (member: MemberRow) => `${member.name} <${member.email}>`;
const lastOwner = () =>
  new AppError(
    'resource_conflict',
    'A workspace keeps at least one owner: make someone else an owner first.',
    {
      param: 'member_id',
    },
  );
