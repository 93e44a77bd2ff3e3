import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, invalidParam, notFound, requireText } from '../../core/http/errors.ts';
import { requireUuid } from '../../core/http/ids.ts';
import type { PageQuery, PageRequest, Paginator } from '../../core/http/pagination.ts';
import { positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { Demeanor, Gender } from '../scenarios/tables.ts';
import {
  type Avatar,
  avatarImageUrl,
  defaultVoiceId,
  findAvatar,
  findVoice,
  isDefaultVoice,
} from './catalog.ts';
import { type PersonaRow, personaRepository as repo } from './repository.ts';

const LIST = 'personas';

export interface PersonaInput {
  name: string;
  job_title: string;
  demeanor?: Demeanor;
  background?: string | null;
  gender?: Gender | null;
  voice_id?: string;
  avatar_id?: string | null;
}

export type PersonaPatch = Partial<Omit<PersonaInput, 'voice_id'>> & { voice_id?: string | null };

export interface PersonaDeps {
  db: Kysely<DB>;
  clock: Clock;
  paginator: Paginator;
  publicUrl: string;
}

/** Who creates: the workspace and (when known) the member acting. */
export interface Owner {
  accountId: string;
  membershipId: string | null;
}

export type RenderedPersona = ReturnType<PersonaService['render']>;

export class PersonaService {
  constructor(private readonly deps: PersonaDeps) {}

  render(row: PersonaRow) {
    const avatar = row.avatar_id ? findAvatar(row.avatar_id) : undefined;
    return {
      id: row.id,
      name: row.name,
      job_title: row.job_title,
      demeanor: row.demeanor,
      background: row.background,
      gender: row.gender,
      voice_id: row.voice_id,
      avatar_id: row.avatar_id,
      // From the catalog when possible, so a changed PUBLIC_URL never leaves stale links.
      avatar_url: avatar ? avatarImageUrl(this.deps.publicUrl, avatar) : row.avatar_url,
      membership_id: row.membership_id,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  }

  paginate(query: PageQuery, principal: Principal): PageRequest | null {
    return this.deps.paginator.parse(query, LIST, principal.accountId);
  }

  async list(principal: Principal, page: PageRequest | null) {
    const rows = await repo.list(this.deps.db, principal.accountId, page);
    if (!page) return rows.map((row) => this.render(row));
    return this.deps.paginator.page(rows, page, LIST, principal.accountId, positionOf, (row) =>
      this.render(row),
    );
  }

  /** One keyset chunk of the list, rendered later: the whole list is streamed from these (routes). */
  listChunk(principal: Principal, page: PageRequest) {
    return repo.list(this.deps.db, principal.accountId, page);
  }

  async get(principal: Principal, id: string) {
    return this.render(await this.find(this.deps.db, principal.accountId, id));
  }

  async create(principal: Principal, input: PersonaInput) {
    return this.render(await this.insert(this.deps.db, principalOwner(principal), input));
  }

  /** Creates a persona with the caller's executor (seeding, import and generation run in a transaction). */
  async insert(db: Kysely<DB>, owner: Owner, input: PersonaInput, paramPrefix = ''): Promise<PersonaRow> {
    const name = requireText(input.name, `${paramPrefix}name`);
    const jobTitle = requireText(input.job_title, `${paramPrefix}job_title`);
    const avatar = input.avatar_id ? avatarOrThrow(input.avatar_id, `${paramPrefix}avatar_id`) : undefined;
    if (input.voice_id !== undefined) voiceOrThrow(input.voice_id, `${paramPrefix}voice_id`);
    const gender = avatar?.gender ?? input.gender ?? null;
    const now = this.deps.clock.now();
    return repo.insert(db, {
      id: randomUUID(),
      account_id: owner.accountId,
      membership_id: owner.membershipId,
      name,
      job_title: jobTitle,
      demeanor: input.demeanor ?? 'neutral',
      background: input.background ?? null,
      gender,
      voice_id: input.voice_id?.toLowerCase() ?? defaultVoiceId(gender),
      avatar_id: avatar?.id ?? null,
      avatar_url: avatar ? avatarImageUrl(this.deps.publicUrl, avatar) : null,
      created_at: now,
      updated_at: now,
    });
  }

  async update(principal: Principal, id: string, patch: PersonaPatch) {
    const row = await this.find(this.deps.db, principal.accountId, id);
    let avatar: Avatar | null | undefined;
    if (patch.avatar_id !== undefined)
      avatar = patch.avatar_id ? avatarOrThrow(patch.avatar_id, 'avatar_id') : null;
    // null asks for the default voice; anything else, even "", must name a catalog voice.
    if (patch.voice_id !== undefined && patch.voice_id !== null) voiceOrThrow(patch.voice_id, 'voice_id');
    const gender = avatar ? avatar.gender : patch.gender !== undefined ? patch.gender : row.gender;
    const updated = await repo.update(this.deps.db, principal.accountId, row.id, {
      name: patch.name === undefined ? undefined : requireText(patch.name, 'name'),
      job_title: patch.job_title === undefined ? undefined : requireText(patch.job_title, 'job_title'),
      demeanor: patch.demeanor,
      background: patch.background,
      gender,
      voice_id: this.nextVoice(row, gender, patch.voice_id),
      ...(avatar === undefined
        ? {}
        : {
            avatar_id: avatar?.id ?? null,
            avatar_url: avatar ? avatarImageUrl(this.deps.publicUrl, avatar) : null,
          }),
      updated_at: this.deps.clock.now(),
    });
    if (!updated) throw notFound('persona');
    return this.render(updated);
  }

  async setAvatar(principal: Principal, id: string, avatarId: string) {
    return this.update(principal, id, { avatar_id: avatarId });
  }

  async clearAvatar(principal: Principal, id: string) {
    return this.update(principal, id, { avatar_id: null });
  }

  async delete(principal: Principal, id: string) {
    const row = await this.find(this.deps.db, principal.accountId, id);
    const inUse = await repo.scenarioCount(this.deps.db, principal.accountId, row.id);
    if (inUse > 0) {
      throw new AppError(
        'resource_conflict',
        `This persona plays in ${inUse} scenario${inUse === 1 ? '' : 's'}; give ${inUse === 1 ? 'it' : 'them'} another persona or delete ${inUse === 1 ? 'it' : 'them'} first.`,
        { param: 'id' },
      );
    }
    await repo.delete(this.deps.db, principal.accountId, row.id);
    return { id: row.id, object: 'persona' as const, deleted: true as const };
  }

  findMany(db: Kysely<DB>, accountId: string, ids: string[]): Promise<PersonaRow[]> {
    return repo.findMany(db, accountId, ids);
  }

  async find(db: Kysely<DB>, accountId: string, id: string, param = 'id'): Promise<PersonaRow> {
    const row = await repo.find(db, accountId, requireUuid(id, 'persona', param));
    if (!row) throw notFound('persona', param);
    return row;
  }

  /**
   * An explicit voice wins; null asks for the default again. Otherwise a persona still on the
   * default voice follows a gender change, and a hand-picked voice is kept.
   */
  private nextVoice(row: PersonaRow, gender: Gender | null, requested: string | null | undefined): string {
    if (requested) return requested.toLowerCase();
    if (requested === null) return defaultVoiceId(gender);
    if (gender !== row.gender && isDefaultVoice(row.voice_id)) return defaultVoiceId(gender);
    return row.voice_id;
  }
}

export const principalOwner = (principal: Principal): Owner => ({
  accountId: principal.accountId,
  membershipId: principal.membershipId,
});

/** Trimmed; a name of spaces only would pass `minLength` and then show participants nothing. */
function voiceOrThrow(id: string, param: string) {
  const voice = findVoice(id.toLowerCase());
  if (!voice) throw invalidParam(param, 'Unknown voice_id: choose one from GET /voices.');
  return voice;
}

function avatarOrThrow(id: string, param: string) {
  const avatar = findAvatar(id.toLowerCase());
  if (!avatar) throw invalidParam(param, 'Unknown avatar_id: choose one from GET /avatars.');
  return avatar;
}
