// Every view of the dashboard: its address, title, where it sits in the navigation, and the
// module that draws it (loaded when first visited). `public` views are shown signed out.
export const NAV_SECTIONS = ['Practice', 'Authoring', 'Integrations', 'Workspace'];

export const ROUTES = [
  {
    path: '/',
    title: 'Overview',
    nav: { section: 'Practice', label: 'Overview' },
    load: () => import('./pages/home.js'),
  },
  // Practice: meetings and results (dash-meetings).
  {
    path: '/meetings',
    title: 'Meetings',
    nav: { section: 'Practice', label: 'Meetings' },
    load: () => import('./pages/meetings/list.js'),
  },
  { path: '/meetings/:id', title: 'Meeting', load: () => import('./pages/meetings/detail.js') },
  {
    path: '/results',
    title: 'Results',
    nav: { section: 'Practice', label: 'Results' },
    load: () => import('./pages/meetings/results.js'),
  },
  // Scenarios (Authoring): list, create, edit. `/scenarios/new` comes before `/scenarios/:id`.
  {
    path: '/scenarios',
    title: 'Scenarios',
    nav: { section: 'Authoring', label: 'Scenarios' },
    load: () => import('./pages/scenarios/list.js'),
  },
  { path: '/scenarios/new', title: 'New scenario', load: () => import('./pages/scenarios/new.js') },
  { path: '/scenarios/:id', title: 'Scenario', load: () => import('./pages/scenarios/edit.js') },
  { path: '/sign-in', title: 'Sign in', public: true, load: () => import('./pages/sign-in.js') },
  { path: '/sign-up', title: 'Create your account', public: true, load: () => import('./pages/sign-in.js') },
  {
    path: '/forgot-password',
    title: 'Forgot your password?',
    public: true,
    load: () => import('./pages/forgot-password.js'),
  },
  {
    path: '/reset-password',
    title: 'Choose a new password',
    public: true,
    load: () => import('./pages/reset-password.js'),
  },
];

/** The route for a path, with its parameters. */
export function findRoute(path, matchPath) {
  for (const route of ROUTES) {
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return null;
}
