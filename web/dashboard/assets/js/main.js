// The dashboard's entry: finds who is signed in, then draws the view the address names. Signed-out
// visitors are sent to the sign-in view and come back to where they were going afterwards.
import { onSignedOut } from './api.js';
import { AuthFrame, Shell } from './components/layout.js';
import { ErrorNotice, Loading } from './components/ui.js';
import { html, render, useEffect, useState } from './lib.js';
import { matchPath, navigate, useLocation } from './router.js';
import { findRoute } from './routes.js';
import { loadSession, SessionContext } from './session.js';

const loaded = new Map();

/** Loads a view's module once; `null` while it is on its way. */
function usePage(route) {
  const [, setVersion] = useState(0);
  useEffect(() => {
    if (!route || loaded.has(route.path)) return;
    route.load().then(
      (module) => {
        loaded.set(route.path, { component: module.default });
        setVersion((version) => version + 1);
      },
      (error) => {
        loaded.set(route.path, { error });
        setVersion((version) => version + 1);
      },
    );
  }, [route]);
  return route ? loaded.get(route.path) : undefined;
}

function NotFound() {
  return html`<div class="page"><h1 tabindex="-1" data-page-title>Page not found</h1>
    <p>There is nothing at this address. <a href="#/">Go to the overview</a>.</p></div>`;
}

function App() {
  const where = useLocation();
  const [session, setSession] = useState(undefined);
  const [bootError, setBootError] = useState(null);

  useEffect(() => {
    loadSession().then(setSession, setBootError);
    return onSignedOut(() => setSession(null));
  }, []);

  const found = findRoute(where.path, matchPath);
  const page = usePage(found?.route);
  const signedIn = Boolean(session);

  useEffect(() => {
    if (session === undefined) return;
    if (!signedIn && !found?.route.public) {
      const next = encodeURIComponent(location.hash.replace(/^#/, '') || '/');
      navigate(`/sign-in?next=${next}`, { replace: true });
    }
  }, [session, found?.route]);

  useEffect(() => {
    document.title = found ? `${found.route.title} · Understudy` : 'Not found · Understudy';
    // Move focus to the new view's heading so screen readers announce the change.
    requestAnimationFrame(() => document.querySelector('[data-page-title]')?.focus({ preventScroll: true }));
  }, [where.path, page]);

  if (bootError)
    return html`<${AuthFrame}><${ErrorNotice} error=${bootError} title="The dashboard could not start" /><//>`;
  if (session === undefined) return html`<${AuthFrame}><${Loading} rows=${2} /><//>`;

  let view;
  if (!signedIn && !found?.route.public) view = html`<${Loading} rows=${2} />`;
  else if (!found) view = html`<${NotFound} />`;
  else if (!page) view = html`<${Loading} />`;
  else if (page.error)
    view = html`<${ErrorNotice} error=${page.error} title="This page could not be loaded" />`;
  else view = html`<${page.component} params=${found.params} query=${where.query} path=${where.path} />`;

  const framed = found?.route.public
    ? html`<${AuthFrame}>${view}<//>`
    : html`<${Shell} path=${where.path}>${view}<//>`;
  return html`<${SessionContext.Provider} value=${{ session, setSession }}>${framed}<//>`;
}

const root = document.getElementById('app');
// The page's "Loading…" placeholder goes: Preact would keep it beside what it draws.
root.replaceChildren();
render(html`<${App} />`, root);
