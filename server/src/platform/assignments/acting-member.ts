import type { Principal } from '../../core/http/principal.ts';

/**
 * A practice link starts a meeting on a member's behalf (the coach who assigned it, or who made the
 * scenario's open link): the meeting is theirs, for the person practising, as if they had started it.
 */
export const actingMember = (accountId: string, membershipId: string | null, subject: string): Principal => ({
  kind: 'user',
  accountId,
  // Null once that member has left the workspace: the meeting then belongs to no member.
  membershipId: membershipId as string,
  role: 'coach',
  userId: null,
  apiKeyId: null,
  scopes: null,
  subject,
});
