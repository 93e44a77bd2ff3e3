// Room tokens: 32 random bytes (base64url, 43 characters), returned once by POST /meetings and
// stored as their SHA-256. They authenticate the room pages, the room API and the WebSocket.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { safeEqual, sha256Hex } from '../../core/crypto/hashing.ts';
import type { DB } from '../../core/db/schema.ts';
import { isUuid } from '../../core/http/ids.ts';
import { meetingRepository } from './repository.ts';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,256}$/;

export function newRoomToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

export interface RoomMeeting {
  id: string;
  account_id: string;
  scenario_id: string;
  /** The scenario is public: other sites may frame the room. */
  embeddable: boolean;
}

/** The meeting `token` opens, or null (wrong token, other meeting, malformed input). */
export async function findRoomMeeting(
  db: Kysely<DB>,
  meetingId: string,
  token: string | undefined | null,
): Promise<RoomMeeting | null> {
  if (!token || !TOKEN_SHAPE.test(token) || !isUuid(meetingId)) return null;
  const hash = sha256Hex(token);
  const row = await meetingRepository.findForRoom(db, meetingId.toLowerCase());
  if (!row?.room_token_hash || !safeEqual(row.room_token_hash, hash)) return null;
  return {
    id: row.id,
    account_id: row.account_id,
    scenario_id: row.scenario_id,
    embeddable: row.visibility === 'public',
  };
}

/** For the room pages (platform/room): the grant a valid token gives, else null. */
export async function checkRoomToken(
  db: Kysely<DB>,
  meetingId: string,
  token: string,
): Promise<{ embeddable: boolean } | null> {
  const meeting = await findRoomMeeting(db, meetingId, token);
  return meeting ? { embeddable: meeting.embeddable } : null;
}
