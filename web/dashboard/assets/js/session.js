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
