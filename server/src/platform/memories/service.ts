import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { type Clock, systemClock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, type FieldError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { PageQuery, Paginator } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import { requireScenario } from '../scenarios/require.ts';
import {
  cleanFact,
  factKey,
  isValidTag,
  MAX_EXTERNAL_ID_LENGTH,
  MAX_FACT_LENGTH,
  splitFacts,
  subjectOf,
} from './facts.ts';
import { type MemoryRow, memoryRepository as repo, type TagRow } from './repository.ts';
import { DEFAULT_MEMORY_LIMIT } from './schemas.ts';

const TAGS_LIST = 'memory_tags';
const MEMORIES_LIST = 'memories';

/** `limit` is "at most this many memories" (1 to 1000), the cursor where the last page stopped. */
export type MemoryPageQuery = Pick<PageQuery, 'cursor' | 'starting_after'> & { limit?: number };
/** Facts one request may create after multi-line entries are split (bounds a single write). */
export const MAX_FACTS_PER_REQUEST = 5000;
/** An imported `created_at` may run this far ahead of our clock (skew), and is then taken as now. */
const FUTURE_SKEW_MS = 5 * 60 * 1000;

/** A fact as given: a string (possibly several lines) or an object with its own id and time. */
export type MemoryFactInput =
  | string
  | { content: string; external_id?: string | null; created_at?: string | Date | null };

/** Where facts come from: this API, or a meeting's analysis write-back. */
export type MemorySource = 'api' | { type: 'meeting'; meetingId: string; scenarioId?: string | null };

export interface AddMemoriesInput {
  accountId: string;
  tag: string;
  facts: MemoryFactInput[];
  source: MemorySource;
  /** Relates the facts to a scenario; a meeting source defaults it to the meeting's scenario. */
  scenarioId?: string | null;
  now?: Date;
}

export interface SkippedMemory {
  content: string;
  reason: 'duplicate' | 'duplicate_in_request';
}

export interface AddMemoriesResult {
  created: MemoryRow[];
  skipped: SkippedMemory[];
}

export function renderMemory(row: MemoryRow) {
  return {
    id: row.id,
    user_memory_tag: row.user_memory_tag,
    content: row.content,
    external_id: row.external_id,
    scenario_id: row.scenario_id,
    source: row.source,
    source_meeting_id: row.source_meeting_id,
    source_scenario_id: row.source_scenario_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
export type RenderedMemory = ReturnType<typeof renderMemory>;

interface PlannedFact {
  content: string;
  key: string;
  externalId: string | null;
  createdAt: Date;
}

const invalid = (param: string, message: string): FieldError => ({
  param,
  code: 'parameter_invalid',
  message,
});

/**
 * Turns the entries into facts, one per line, and checks every limit. From the API every problem
 * is reported at once (400, `errors`); from a meeting, facts that break a limit are dropped, since
 * a write-back must not fail over one overlong sentence.
 */
function planFacts(facts: MemoryFactInput[], now: Date, strict: boolean): PlannedFact[] {
  const errors: FieldError[] = [];
  const planned: PlannedFact[] = [];
  facts.forEach((entry, index) => {
    const isObject = typeof entry === 'object' && entry !== null;
    const contentParam = isObject ? `memories[${index}].content` : `memories[${index}]`;
    const content = isObject ? entry.content : entry;
    if (typeof content !== 'string') {
      errors.push(invalid(contentParam, `${contentParam} must be a string.`));
      return;
    }
    const lines = splitFacts(content);
    if (lines.length === 0) errors.push(invalid(contentParam, `${contentParam} holds no fact.`));
    const tooLong = lines.findIndex((line) => line.length > MAX_FACT_LENGTH);
    if (tooLong >= 0) {
      errors.push(
        invalid(
          contentParam,
          `${contentParam}: each fact must be at most ${MAX_FACT_LENGTH} characters (line ${tooLong + 1} has ${lines[tooLong]!.length}).`,
        ),
      );
    }
    let externalId: string | null = null;
    let createdAt = now;
    if (isObject) {
      if (entry.external_id !== undefined && entry.external_id !== null) {
        if (typeof entry.external_id !== 'string' || entry.external_id.length > MAX_EXTERNAL_ID_LENGTH) {
          errors.push(
            invalid(
              `memories[${index}].external_id`,
              `memories[${index}].external_id must be a string of at most ${MAX_EXTERNAL_ID_LENGTH} characters.`,
            ),
          );
        } else if (entry.external_id.length > 0) {
          externalId = entry.external_id;
        }
      }
      if (entry.created_at !== undefined && entry.created_at !== null) {
        const param = `memories[${index}].created_at`;
        const at = entry.created_at instanceof Date ? entry.created_at : parseTimestamp(entry.created_at);
        if (!at) errors.push(invalid(param, `${param} must be an ISO 8601 timestamp.`));
        else if (at.getTime() > now.getTime() + FUTURE_SKEW_MS) {
          errors.push(invalid(param, `${param} must not be in the future.`));
        } else createdAt = at.getTime() > now.getTime() ? now : at;
      }
    }
    for (const line of lines) {
      if (line.length > MAX_FACT_LENGTH && !strict) continue;
      planned.push({ content: line, key: factKey(line), externalId, createdAt });
    }
  });
  if (strict && planned.length > MAX_FACTS_PER_REQUEST) {
    errors.push(invalid('memories', `At most ${MAX_FACTS_PER_REQUEST} facts can be written at once.`));
  }
  if (strict && errors.length > 0) {
    throw new AppError('parameter_invalid', errors[0]!.message, { param: errors[0]!.param, errors });
  }
  return planned;
}

function parseTimestamp(raw: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw)) return null;
  const at = new Date(raw);
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * Adds facts to a container, skipping those it already holds and repeats within the call (compared
 * ignoring case, spacing, list markers and a trailing full stop). Pass a transaction to make the
 * write part of a larger one (the analysis write-back does). `created` is in input order.
 */
export async function addMemories(db: Kysely<DB>, input: AddMemoriesInput): Promise<AddMemoriesResult> {
  const strict = input.source === 'api';
  if (!isValidTag(input.tag)) {
    throw new AppError(
      'parameter_invalid',
      'user_memory_tag must be 1 to 128 letters, digits and . _ : @ + - / | =',
      { param: 'user_memory_tag' },
    );
  }
  const now = input.now ?? systemClock.now();
  const planned = planFacts(input.facts, now, strict);
  const skipped: SkippedMemory[] = [];
  const fresh: PlannedFact[] = [];
  const seen = new Set<string>();
  const existing = await repo.existingKeys(db, input.accountId, input.tag, [
    ...new Set(planned.map((f) => f.key)),
  ]);
  for (const fact of planned) {
    if (existing.has(fact.key)) skipped.push({ content: fact.content, reason: 'duplicate' });
    else if (seen.has(fact.key)) skipped.push({ content: fact.content, reason: 'duplicate_in_request' });
    else {
      seen.add(fact.key);
      fresh.push(fact);
    }
  }
  const meeting = input.source === 'api' ? null : input.source;
  const scenarioId = input.scenarioId ?? meeting?.scenarioId ?? null;
  const rows: Insertable<DB['memories']>[] = fresh.map((fact) => ({
    id: randomUUID(),
    account_id: input.accountId,
    user_memory_tag: input.tag,
    content: fact.content,
    content_key: fact.key,
    external_id: fact.externalId,
    scenario_id: scenarioId,
    source: meeting ? 'meeting' : 'api',
    source_meeting_id: meeting?.meetingId ?? null,
    source_scenario_id: meeting?.scenarioId ?? null,
    created_at: fact.createdAt,
    updated_at: now,
  }));
  const created = await repo.insertMany(db, rows);
  if (created.length < rows.length) {
    // Another writer stored some of these facts between our check and our insert.
    const stored = new Set(created.map((row) => row.content_key));
    for (const row of rows) {
      if (!stored.has(row.content_key)) skipped.push({ content: row.content, reason: 'duplicate' });
    }
  }
  return { created, skipped };
}

/** A container's memories, newest first, for an agent reading it at call start. */
export async function readMemories(
  db: Kysely<DB>,
  accountId: string,
  tag: string,
  limit = DEFAULT_MEMORY_LIMIT,
): Promise<RenderedMemory[]> {
  if (!isValidTag(tag)) return [];
  const rows = await repo.list(db, accountId, tag, limit);
  return rows.map(renderMemory);
}

export interface MemoryDeps {
  db: Kysely<DB>;
  clock: Clock;
  paginator: Paginator;
}

const memoryNotFound = () => notFound('memory', 'id');
const tagNotFound = () =>
  new AppError('resource_not_found', 'No memories are stored under this tag.', { param: 'tag' });

function renderTag(row: TagRow) {
  return {
    user_memory_tag: row.user_memory_tag,
    subject: subjectOf(row.user_memory_tag),
    memory_count: Number(row.memory_count),
    last_memory_at: new Date(row.last_memory_at).toISOString(),
    last_activity_at: new Date(row.last_activity_at).toISOString(),
  };
}

export class MemoryService {
  constructor(private readonly deps: MemoryDeps) {}

  async create(
    principal: Principal,
    input: { user_memory_tag: string; scenario_id?: string; memories: MemoryFactInput[] },
  ) {
    const { db, clock } = this.deps;
    const scenario =
      input.scenario_id === undefined
        ? null
        : await requireScenario(db, principal.accountId, input.scenario_id, 'scenario_id');
    const result = await db.transaction().execute((tx) =>
      addMemories(tx, {
        accountId: principal.accountId,
        tag: input.user_memory_tag,
        facts: input.memories,
        source: 'api',
        scenarioId: scenario?.id ?? null,
        now: clock.now(),
      }),
    );
    return { created: result.created.map(renderMemory), skipped: result.skipped };
  }

  /**
   * A container's (or, without a tag, the workspace's) memories, newest first: at most `limit`
   * (default 400), and `next_cursor` to read on past them. A cursor names the container it was
   * issued for, so one from another container is refused.
   */
  async list(principal: Principal, tag: string | undefined, query: MemoryPageQuery) {
    const { db, paginator } = this.deps;
    const { accountId } = principal;
    const list = `${MEMORIES_LIST}:${tag ?? '*'}`;
    const after = paginator.position(query, list, accountId);
    const limit = query.limit ?? DEFAULT_MEMORY_LIMIT;
    const rows = await repo.list(
      db,
      accountId,
      tag ?? null,
      limit + 1,
      after && { createdAt: after.createdAt, seq: String(after.id) },
    );
    return paginator.page(
      rows,
      { limit, after },
      list,
      accountId,
      (row) => ({ createdAt: row.created_at.toISOString(), id: String(row.seq) }),
      renderMemory,
    );
  }

  async tags(principal: Principal, query: PageQuery & { scenario_id?: string }) {
    const { db, paginator } = this.deps;
    if (query.scenario_id !== undefined) {
      await requireScenario(db, principal.accountId, query.scenario_id, 'scenario_id');
    }
    const page = paginator.parse(query, TAGS_LIST, principal.accountId);
    const rows = await repo.tags(db, principal.accountId, {
      scenarioId: query.scenario_id,
      after: page?.after ? { lastActivityAt: page.after.createdAt, tag: String(page.after.id) } : null,
      limit: page ? page.limit + 1 : undefined,
    });
    if (!page) return { data: rows.map(renderTag) };
    return paginator.page(
      rows,
      page,
      TAGS_LIST,
      principal.accountId,
      (row) => ({ createdAt: new Date(row.last_activity_at).toISOString(), id: row.user_memory_tag }),
      renderTag,
    );
  }

  /** The container's summary and one page of its memories (as `list`). */
  async tag(principal: Principal, tag: string, query: MemoryPageQuery) {
    if (!isValidTag(tag)) throw tagNotFound();
    const [summary] = await repo.tags(this.deps.db, principal.accountId, { tag });
    if (!summary) throw tagNotFound();
    const page = await this.list(principal, tag, query);
    return {
      data: { ...renderTag(summary), memories: page.data },
      has_more: page.has_more,
      next_cursor: page.next_cursor,
    };
  }

  async deleteTag(principal: Principal, tag: string) {
    if (!isValidTag(tag) || (await repo.deleteTag(this.deps.db, principal.accountId, tag)) === 0) {
      throw tagNotFound();
    }
  }

  async get(principal: Principal, id: string) {
    return renderMemory(await this.find(principal, id));
  }

  async update(principal: Principal, id: string, input: { content?: string; external_id?: string | null }) {
    const { db, clock } = this.deps;
    const current = await this.find(principal, id);
    const errors: FieldError[] = [];
    let content: string | undefined;
    if (input.content !== undefined) {
      if (/[\r\n\u2028\u2029]/u.test(input.content.trim())) {
        errors.push(invalid('content', 'content must be one fact on one line.'));
      }
      content = cleanFact(input.content);
      if (content.length === 0) errors.push(invalid('content', 'content must not be empty.'));
      if (content.length > MAX_FACT_LENGTH) {
        errors.push(invalid('content', `content must be at most ${MAX_FACT_LENGTH} characters.`));
      }
    }
    if (typeof input.external_id === 'string' && input.external_id.length > MAX_EXTERNAL_ID_LENGTH) {
      errors.push(
        invalid('external_id', `external_id must be at most ${MAX_EXTERNAL_ID_LENGTH} characters.`),
      );
    }
    if (errors.length > 0) {
      throw new AppError('parameter_invalid', errors[0]!.message, { param: errors[0]!.param, errors });
    }
    const key = content === undefined ? undefined : factKey(content);
    if (key !== undefined && key !== current.content_key) {
      const clash = await repo.findByKey(db, principal.accountId, current.user_memory_tag, key);
      if (clash && clash.id !== current.id) throw duplicateContent();
    }
    try {
      const row = await repo.update(db, principal.accountId, current.id, {
        ...(content !== undefined ? { content, content_key: key } : {}),
        ...(input.external_id !== undefined ? { external_id: input.external_id || null } : {}),
        updated_at: clock.now(),
      });
      if (!row) throw memoryNotFound();
      return renderMemory(row);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw duplicateContent();
      throw error;
    }
  }

  async delete(principal: Principal, id: string) {
    if (!isUuid(id) || !(await repo.delete(this.deps.db, principal.accountId, id))) throw memoryNotFound();
  }

  private async find(principal: Principal, id: string): Promise<MemoryRow> {
    const row = isUuid(id) ? await repo.find(this.deps.db, principal.accountId, id) : undefined;
    if (!row) throw memoryNotFound();
    return row;
  }
}

const duplicateContent = () =>
  new AppError('duplicate', 'This fact is already stored under the same tag.', { param: 'content' });
