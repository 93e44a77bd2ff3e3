import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { PageQuery, Paginator } from '../../core/http/pagination.ts';
import { positionOf } from '../../core/http/pagination.ts';
import type { Principal } from '../../core/http/principal.ts';
import {
  EVENT_DESCRIPTIONS,
  FIRING_EVENT_TYPES,
  type PlatformEventType,
  SUBSCRIBABLE_EVENT_TYPES,
} from './catalog.ts';
import { eventLogRepository } from './repository.ts';

const LIST = 'events';
/** The log is always paged (it only grows): without `limit`, a page of this many. */
const DEFAULT_LIMIT = 25;

export interface EventListInput extends PageQuery {
  meeting_id?: string;
  type?: PlatformEventType;
}

/** The workspace's events as recorded for webhook delivery, and the catalogue of their types. */
export class EventLogService {
  constructor(private readonly deps: { db: Kysely<DB>; paginator: Paginator }) {}

  async list(principal: Principal, input: EventListInput) {
    const { db, paginator } = this.deps;
    const { accountId } = principal;
    const page = paginator.parse(input, LIST, accountId) ?? { limit: DEFAULT_LIMIT, after: null };
    // A malformed meeting id names no meeting: nothing matches.
    const rows =
      input.meeting_id !== undefined && !isUuid(input.meeting_id)
        ? []
        : await eventLogRepository.list(
            db,
            accountId,
            { meetingId: input.meeting_id?.toLowerCase(), type: input.type },
            page,
          );
    return paginator.page(rows, page, LIST, accountId, positionOf, (row) => ({
      id: row.id,
      type: row.event as PlatformEventType,
      created_at: row.created_at.toISOString(),
      data: row.data as { meeting_id: string; scenario_id: string },
    }));
  }

  eventTypes() {
    const firing = new Set<string>(FIRING_EVENT_TYPES);
    return {
      data: SUBSCRIBABLE_EVENT_TYPES.map((type) => ({
        type,
        description: EVENT_DESCRIPTIONS[type],
        fires: firing.has(type),
      })),
    };
  }
}
