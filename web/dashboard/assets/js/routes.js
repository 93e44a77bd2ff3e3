// Every view of the dashboard: its address, title, where it sits in the navigation, and the
// module that draws it (loaded when first visited). `public` views are shown signed out;
// `nav.adminOnly` views are left out of the navigation of authors, coaches and viewers (the API
// refuses them their calls anyway: docs/teams.md).
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
    path: '/meetings/:id/report',
    title: 'Learner report',
    load: () => import('./pages/meetings/report.js'),
  },
  {
    path: '/people',
    title: 'People',
    nav: { section: 'Practice', label: 'People' },
    load: () => import('./pages/people/list.js'),
  },
  { path: '/people/:id', title: 'Person', load: () => import('./pages/people/person.js') },
  {
    path: '/assignments',
    title: 'Assignments',
    nav: { section: 'Practice', label: 'Assignments' },
    load: () => import('./pages/assignments/list.js'),
  },
  { path: '/assignments/:id', title: 'Assignment', load: () => import('./pages/assignments/detail.js') },
  {
    path: '/analytics',
    title: 'Analytics',
    nav: { section: 'Practice', label: 'Analytics' },
    load: () => import('./pages/analytics/list.js'),
  },
  {
    path: '/analytics/:id',
    title: 'Scenario analytics',
    load: () => import('./pages/analytics/scenario.js'),
  },
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
  // Authoring library: personas, goals, guardrails, custom functions, memories.
  {
    path: '/personas',
    title: 'Personas',
    nav: { section: 'Authoring', label: 'Personas' },
    load: () => import('./pages/library/personas.js'),
  },
  {
    path: '/goals',
    title: 'Goals',
    nav: { section: 'Authoring', label: 'Goals' },
    load: () => import('./pages/library/goals.js'),
  },
  {
    path: '/guardrails',
    title: 'Guardrails',
    nav: { section: 'Authoring', label: 'Guardrails' },
    load: () => import('./pages/library/guardrails.js'),
  },
  {
    path: '/functions',
    title: 'Custom functions',
    nav: { section: 'Authoring', label: 'Custom functions' },
    load: () => import('./pages/library/functions.js'),
  },
  {
    path: '/memories',
    title: 'Memories',
    nav: { section: 'Authoring', label: 'Memories' },
    load: () => import('./pages/library/memories.js'),
  },
  // Integrations and Workspace (dash-integrations): webhooks, API keys, mailbox, usage, settings.
  {
    path: '/webhooks',
    title: 'Webhooks',
    nav: { section: 'Integrations', label: 'Webhooks', adminOnly: true },
    load: () => import('./pages/integrations/webhooks.js'),
  },
  {
    path: '/webhooks/:id',
    title: 'Webhook endpoint',
    load: () => import('./pages/integrations/webhook-endpoint.js'),
  },
  {
    path: '/api-keys',
    title: 'API keys',
    nav: { section: 'Integrations', label: 'API keys', adminOnly: true },
    load: () => import('./pages/integrations/api-keys.js'),
  },
  {
    path: '/mailbox',
    title: 'Mailbox',
    nav: { section: 'Integrations', label: 'Mailbox', adminOnly: true },
    load: () => import('./pages/integrations/mailbox.js'),
  },
  { path: '/mailbox/:inbox', title: 'Mailbox', load: () => import('./pages/integrations/mailbox.js') },
  {
    path: '/mailbox/:inbox/:thread',
    title: 'Mailbox',
    load: () => import('./pages/integrations/mailbox.js'),
  },
  {
    path: '/team',
    title: 'Team',
    nav: { section: 'Workspace', label: 'Team' },
    load: () => import('./pages/team/team.js'),
  },
  {
    path: '/usage',
    title: 'Usage',
    nav: { section: 'Workspace', label: 'Usage' },
    load: () => import('./pages/integrations/usage.js'),
  },
  {
    path: '/settings',
    title: 'Workspace settings',
    nav: { section: 'Workspace', label: 'Settings' },
    load: () => import('./pages/integrations/settings.js'),
  },
  { path: '/sign-in', title: 'Sign in', public: true, load: () => import('./pages/sign-in.js') },
  { path: '/sign-up', title: 'Create your account', public: true, load: () => import('./pages/sign-in.js') },
  {
    path: '/forgot-password',
    title: 'Forgot your password?',
    public: true,
    load: () => import('./pages/forgot-password.js'),
  },
  {
    path: '/practice/:token',
    title: 'Practice',
    public: true,
    load: () => import('./pages/practice.js'),
  },
  {
    path: '/try/:token',
    title: 'Practice',
    public: true,
    load: () => import('./pages/try.js'),
  },
  {
    path: '/invitations/:token',
    title: 'Join a workspace',
    public: true,
    load: () => import('./pages/invitation.js'),
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
