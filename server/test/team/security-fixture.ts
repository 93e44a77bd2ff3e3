import type { SecurityFixture } from '../security.ts';

const own = 'the credential’s own workspace, named by no id';

export const teamSecurity: SecurityFixture = {
  resource: 'the team (members, invitations, audit log)',
  routes: {
    'GET /members': { noForeignIds: own },
    'GET /members/{member_id}': {},
    'PATCH /members/{member_id}': { body: () => ({ role: 'viewer' }) },
    'DELETE /members/{member_id}': {},
    'GET /invitations': { noForeignIds: own },
    'POST /invitations': {
      body: () => ({ email: 'invited@example.com', role: 'viewer' }),
      noForeignIds: own,
    },
    'DELETE /invitations/{invitation_id}': {},
    'GET /audit-events': { noForeignIds: own },
  },
  async setup(ws, t) {
    const member = await t.member(ws, 'author');
    const invitation = (
      await ws.call('POST', '/invitations', { email: `later-${ws.accountId}@example.com`, role: 'coach' })
    ).json().data;
    return { member_id: member.membershipId, invitation_id: invitation.id };
  },
};

/** Leaving is for the member themselves: user credentials only, and every role may. */
export const leavingSecurity: SecurityFixture = {
  resource: 'leaving a workspace',
  userTokenOnly: true,
  routes: {
    'DELETE /members/me': { scopes: ['members:read'], noForeignIds: 'the caller leaves their own workspace' },
  },
  async setup() {
    return {};
  },
};
