// The frame around every signed-in view: navigation (a sidebar on wide screens, a menu on phones),
// the workspace and user, and the main region the page draws into.
import { html, useEffect, useState } from '../lib.js';
import { href, navigate } from '../router.js';
import { NAV_SECTIONS, ROUTES } from '../routes.js';
import { isAdmin, signOut, switchWorkspace, useSession } from '../session.js';

/** The workspace name, or a switcher when the user belongs to several. */
function WorkspacePicker({ session, setSession }) {
  const workspaces = session?.workspaces ?? [];
  if (workspaces.length < 2)
    return html`<span class="topbar__workspace" title="Workspace">${session?.account?.name}</span>`;
  const change = async (event) => {
    const next = await switchWorkspace(event.currentTarget.value);
    setSession({ ...next, workspaces });
    navigate('/');
  };
  return html`<select class="input topbar__workspace" aria-label="Workspace" value=${session.account.id} onChange=${change}>
    ${workspaces.map((workspace) => html`<option value=${workspace.id}>${workspace.name}</option>`)}
  </select>`;
}

function isCurrent(routePath, path) {
  if (routePath === '/') return path === '/';
  return path === routePath || path.startsWith(`${routePath}/`);
}

export function Shell({ path, children }) {
  const { session, setSession } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  const leave = async () => {
    await signOut().catch(() => {});
    setSession(null);
    navigate('/sign-in');
  };
  const sections = NAV_SECTIONS.map((section) => ({
    section,
    routes: ROUTES.filter(
      (route) => route.nav?.section === section && (!route.nav.adminOnly || isAdmin(session?.role)),
    ),
  })).filter((group) => group.routes.length > 0);

  return html`<div class="shell">
    <a class="skip-link" href="#main" onClick=${(event) => {
      event.preventDefault();
      document.getElementById('main')?.focus();
    }}>Skip to content</a>
    <header class="topbar">
      <button type="button" class="topbar__menu button button--ghost" aria-expanded=${menuOpen ? 'true' : 'false'}
        aria-controls="site-nav" onClick=${() => setMenuOpen(!menuOpen)}>
        <span aria-hidden="true">☰</span><span class="visually-hidden">Menu</span>
      </button>
      <a class="brand" href=${href('/')}><span class="brand__mark" aria-hidden="true"></span>Understudy</a>
      <div class="topbar__account">
        <${WorkspacePicker} session=${session} setSession=${setSession} />
        <span class="topbar__user muted">${session?.user?.email}</span>
        <button type="button" class="button button--ghost" onClick=${leave}>Sign out</button>
      </div>
    </header>
    <nav id="site-nav" class=${`sidenav${menuOpen ? ' sidenav--open' : ''}`} aria-label="Main">
      ${sections.map(
        (group) => html`<div class="sidenav__group">
          <p class="sidenav__heading">${group.section}</p>
          <ul>
            ${group.routes.map(
              (route) =>
                html`<li><a href=${href(route.path)} aria-current=${isCurrent(route.path, path) ? 'page' : undefined}>${route.nav.label}</a></li>`,
            )}
          </ul>
        </div>`,
      )}
      <div class="sidenav__group"><ul><li><a href="/docs">API reference ↗</a></li></ul></div>
    </nav>
    <main id="main" class="main" tabindex="-1">${children}</main>
  </div>`;
}

/** The centred frame of the signed-out views (sign-in, sign-up, password reset). */
export function AuthFrame({ children }) {
  return html`<main id="main" class="auth">
    <div class="auth__card">
      <p class="brand brand--large"><span class="brand__mark" aria-hidden="true"></span>Understudy</p>
      ${children}
    </div>
  </main>`;
}
