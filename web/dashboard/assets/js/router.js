// Hash routes (`/#/scenarios/abc?tab=goals`): the page at `/` is the only document the server
// serves, so every view has a bookmarkable address without a server-side catch-all.
import { useEffect, useState } from './lib.js';

/** The current location: `{ path, query }` from the hash (`#/` when empty). */
export function currentLocation() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, search = ''] = hash.split('?');
  return { path: path || '/', query: Object.fromEntries(new URLSearchParams(search)) };
}

/** Goes to a dashboard address (`/scenarios`, `/meetings/123?tab=analysis`). */
export function navigate(to, { replace = false } = {}) {
  const hash = `#${to}`;
  if (replace) history.replaceState(null, '', hash);
  else history.pushState(null, '', hash);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/** `href` for a link to a dashboard address. */
export const href = (to) => `#${to}`;

/** Matches `/scenarios/:id` against `/scenarios/42` → `{ id: '42' }`, or null. */
export function matchPath(pattern, path) {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params = {};
  for (let i = 0; i < want.length; i += 1) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}

/** Re-renders on every change of the hash. */
export function useLocation() {
  const [where, setWhere] = useState(currentLocation);
  useEffect(() => {
    const update = () => setWhere(currentLocation());
    window.addEventListener('hashchange', update);
    window.addEventListener('popstate', update);
    return () => {
      window.removeEventListener('hashchange', update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return where;
}
