// The signed-in user's session: the cookie itself is HttpOnly (the page never sees it); the page
// keeps only who is signed in and the CSRF token that every write must carry.
import { api, setCsrfToken } from './api.js';
import { createContext, useContext } from './lib.js';

export const SessionContext = createContext({ session: null, setSession: () => {} });

/** `{ session, setSession }`: session is `{ user, account, csrf_token }` or null. */
export const useSession = () => useContext(SessionContext);

function remember(session) {
  setCsrfToken(session?.csrf_token ?? null);
  return session;
}

/** The current session, or null when nobody is signed in. */
export async function loadSession() {
  try {
    return remember(await api.get('/v1/auth/session', undefined, { quietAuth: true }));
  } catch (error) {
    if (error.status === 401 || error.status === 404) return remember(null);
    throw error;
  }
}

export async function signIn(email, password) {
  return remember(await api.post('/v1/auth/sessions', { email, password }, { quietAuth: true }));
}

/** Creates the account and its workspace, and signs in (one call: the answer is the session). */
export async function signUp({ name, email, password }) {
  return remember(await api.post('/v1/auth/signup', { name, email, password }, { quietAuth: true }));
}

/** How one may sign in here: `{ password, signup, oidc: { name, start_url } | null }`. */
export const loadProviders = () => api.get('/v1/auth/providers', undefined, { quietAuth: true });

export async function signOut() {
  try {
    await api.del('/v1/auth/session', { quietAuth: true });
  } finally {
    remember(null);
  }
}

/** The roles of a workspace, highest first (docs/teams.md), with what each may do. */
export const ROLES = ['owner', 'admin', 'author', 'coach', 'viewer'];
export const ROLE_LABELS = {
  owner: { name: 'Owner', article: 'an', text: 'Everything, including making and removing other owners.' },
  admin: {
    name: 'Admin',
    article: 'an',
    text: 'Everything but owners: members and invitations, API keys, webhooks, the mailbox, settings, the audit log.',
  },
  author: {
    name: 'Author',
    article: 'an',
    text: 'Writes scenarios, personas, goals, guardrails, memories and functions; runs meetings.',
  },
  coach: {
    name: 'Coach',
    article: 'a',
    text: 'Runs meetings, re-runs analyses and gives feedback; reads scenarios.',
  },
  viewer: {
    name: 'Viewer',
    article: 'a',
    text: 'Reads scenarios, meetings, results and reports; changes nothing.',
  },
};

/** Everyone but viewers coaches: comments on reports, edits people, gives practice out (roles.ts). */
export const mayCoach = (role) => Boolean(role) && role !== 'viewer';

/** Admins and owners run the integrations and the team. */
export const isAdmin = (role) => role === 'owner' || role === 'admin';

/** The roles `role` may give: an admin anything but owner, an owner anything. */
export const rolesGivableBy = (role) =>
  role === 'owner' ? ROLES : role === 'admin' ? ROLES.filter((r) => r !== 'owner') : [];

/** Moves the session to another of the user's workspaces; the answer is the new session. */
export async function switchWorkspace(accountId) {
  return remember(await api.put('/v1/auth/session', { account_id: accountId }));
}

/** Accepts an invitation (signed in: as the session's user; else `{ name, password }` signs up). */
export async function acceptInvitation(token, body) {
  return remember(
    await api.post(`/v1/auth/invitations/${encodeURIComponent(token)}/accept`, body ?? {}, {
      quietAuth: true,
    }),
  );
}
