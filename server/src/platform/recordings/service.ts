// Recordings: the room uploads the media and a thumbnail (room-token authenticated, streamed to
// object storage, size-limited); once the meeting has ended and the media is in, the recording is
// published (recording.ready). Owners read signed, expiring URLs.
import { randomUUID } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { AppError, notFound } from '../../core/http/errors.ts';
import { isUuid } from '../../core/http/ids.ts';
import type { Principal } from '../../core/http/principal.ts';
import type { ObjectStorage } from '../../core/storage/index.ts';
import type { EventEmitter } from '../events/emitter.ts';
import { RECORDING_MAX_BYTES } from '../live/context.ts';
import type { RoomMeeting } from '../meetings/room-token.ts';
import { publishRecording } from './publish.ts';
import { recordingRepository as repo } from './repository.ts';

export const THUMBNAIL_MAX_BYTES = 5 * 1024 * 1024;
/** Uploads are accepted until this long after the end. */
export const UPLOAD_WINDOW_MS = 60 * 60_000;
/** Signed recording URLs expire after this. */
export const URL_TTL_SECONDS = 3600;

export const MEDIA_TYPES: Record<string, string> = {
  'video/webm': 'webm',
  'video/mp4': 'mp4',
  'audio/webm': 'weba',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
};
export const IMAGE_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

export type UploadKind = 'media' | 'thumbnail';

export interface RecordingServiceDeps {
  db: Kysely<DB>;
  clock: Clock;
  events: EventEmitter;
  storage: ObjectStorage;
  logger: Logger;
  /** MEDIA_PUBLIC_URL: replaces the origin (and path prefix) of signed URLs, e.g. a CDN. */
  mediaPublicUrl: string | null;
  /** What the signed URLs start with before MEDIA_PUBLIC_URL replaces it. */
  storageBaseUrl: string | null;
}

class TooLarge extends Error {}

/** Counts bytes and fails the stream past `limit` (and when it ends short of `expected`). */
function limited(limit: number, expected: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit || seen > expected)
        callback(new TooLarge(`more than ${Math.min(limit, expected)} bytes`));
      else callback(null, chunk);
    },
    flush(callback) {
      callback(seen === expected ? null : new Error(`body ended after ${seen} of ${expected} bytes`));
    },
  });
}

export function baseContentType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export class RecordingService {
  constructor(private readonly deps: RecordingServiceDeps) {}

  async upload(
    room: RoomMeeting,
    kind: UploadKind,
    input: { contentType: string | undefined; contentLength: string | undefined; body: Readable },
  ) {
    const { db, clock, storage } = this.deps;
    const types = kind === 'media' ? MEDIA_TYPES : IMAGE_TYPES;
    const limit = kind === 'media' ? RECORDING_MAX_BYTES : THUMBNAIL_MAX_BYTES;
    const type = baseContentType(input.contentType);
    if (!(type in types)) {
      throw new AppError(
        'unsupported_media_type',
        `Content-Type must be one of ${Object.keys(types).join(', ')}.`,
        {
          param: 'Content-Type',
        },
      );
    }
    const length = Number(input.contentLength);
    if (!input.contentLength || !Number.isInteger(length) || length < 1) {
      throw new AppError('parameter_missing', 'Send the body with a Content-Length header.', {
        param: 'Content-Length',
      });
    }
    if (length > limit) {
      throw new AppError(
        'payload_too_large',
        `The ${kind === 'media' ? 'recording' : 'thumbnail'} may be at most ${limit} bytes.`,
        {
          param: 'Content-Length',
        },
      );
    }
    await this.assertUploadAllowed(room);
    const key = `recordings/${room.account_id}/${room.id}/${kind}-${randomUUID()}.${types[type]}`;
    try {
      await storage.put(key, input.body.pipe(limited(limit, length)), type, { contentLength: length });
    } catch (error) {
      input.body.resume();
      await storage.delete(key).catch(() => {});
      if (error instanceof TooLarge) {
        throw new AppError('payload_too_large', `The body is larger than announced or than ${limit} bytes.`);
      }
      throw new AppError('invalid_request', 'The upload did not complete.', { cause: error });
    }
    const now = clock.now();
    let replaced: string | null = null;
    try {
      await db.transaction().execute(async (tx) => {
        const current = await repo.lockForMeeting(tx, room.id);
        if (kind === 'media' && current?.status === 'ready') {
          throw new AppError('resource_conflict', 'The recording of this meeting is already published.');
        }
        const columns =
          kind === 'media'
            ? { media_key: key, media_content_type: type, media_size: length }
            : { thumbnail_key: key, thumbnail_content_type: type, thumbnail_size: length };
        if (current) {
          replaced = kind === 'media' ? current.media_key : current.thumbnail_key;
          await repo.update(tx, current.id, { ...columns, updated_at: now });
        } else {
          await repo.insert(tx, {
            id: randomUUID(),
            meeting_id: room.id,
            account_id: room.account_id,
            scenario_id: room.scenario_id,
            status: 'uploaded',
            ...columns,
            created_at: now,
            updated_at: now,
          });
        }
        if (kind === 'media') await publishRecording(tx, this.deps, room.id);
      });
    } catch (error) {
      await storage.delete(key).catch(() => {});
      throw error;
    }
    if (replaced) await storage.delete(replaced).catch(() => {});
    return { status: 'uploaded' as const, size: length, content_type: type };
  }

  private async assertUploadAllowed(room: RoomMeeting): Promise<void> {
    const row = await repo.uploadConditions(this.deps.db, room.id);
    // Deleted since the room token was checked: a 404, not a 500.
    if (!row) throw new AppError('resource_not_found', 'No such meeting: it was deleted.', { param: 'id' });
    if (row.status === 'created') {
      throw new AppError('resource_conflict', 'The meeting has not started: nothing can be recorded yet.');
    }
    if (!row.recording_enabled) {
      throw new AppError('permission_denied', 'Recording is turned off for this scenario.');
    }
    if (row.recording_consent_required && row.recording_consent !== true) {
      throw new AppError('permission_denied', 'The participant did not consent to recording.');
    }
    if (
      row.ended_at &&
      this.deps.clock.now().getTime() - new Date(row.ended_at).getTime() > UPLOAD_WINDOW_MS
    ) {
      throw new AppError(
        'permission_denied',
        `Uploads close ${UPLOAD_WINDOW_MS / 60_000} minutes after the meeting ends.`,
      );
    }
  }

  /** A published recording's signed URLs; 404 while there is none (not yet, or never). */
  async urls(principal: Principal, meetingId: string) {
    const row = isUuid(meetingId)
      ? await repo.findReady(this.deps.db, principal.accountId, meetingId)
      : undefined;
    if (!row?.media_key) {
      const meeting = isUuid(meetingId)
        ? await repo.findMeeting(this.deps.db, principal.accountId, meetingId)
        : undefined;
      if (!meeting) throw notFound('meeting', 'meetingId');
      throw new AppError('resource_not_found', 'This meeting has no recording (yet).', {
        param: 'meetingId',
      });
    }
    const expiresAt = new Date(this.deps.clock.now().getTime() + URL_TTL_SECONDS * 1000);
    const url = await this.sign(row.media_key);
    const thumbnailUrl = row.thumbnail_key ? await this.sign(row.thumbnail_key) : null;
    return {
      recording_id: row.id,
      meeting_id: row.meeting_id,
      url,
      thumbnail_url: thumbnailUrl,
      content_type: row.media_content_type ?? 'application/octet-stream',
      size_bytes: Number(row.media_size ?? 0),
      expires_at: expiresAt.toISOString(),
      created_at: new Date(row.ready_at ?? row.created_at).toISOString(),
    };
  }

  private async sign(key: string): Promise<string> {
    const signed = await this.deps.storage.signedUrl(key, URL_TTL_SECONDS);
    return publicMediaUrl(signed, this.deps.storageBaseUrl, this.deps.mediaPublicUrl);
  }
}

/**
 * A signed storage URL as the customer gets it: with MEDIA_PUBLIC_URL set (a CDN in front), the
 * storage base (`{PUBLIC_URL}/storage`, or `{S3_ENDPOINT}/{bucket}`) is replaced by it; the path
 * below the base and the signed query stay as they are.
 */
export function publicMediaUrl(
  signed: string,
  storageBaseUrl: string | null,
  mediaPublicUrl: string | null,
): string {
  if (!mediaPublicUrl) return signed;
  const url = new URL(signed);
  const base = storageBaseUrl ? new URL(storageBaseUrl) : new URL(url.origin);
  const prefix = base.pathname.replace(/\/$/, '');
  const rest = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
  return `${mediaPublicUrl.replace(/\/$/, '')}${rest}${url.search}`;
}
