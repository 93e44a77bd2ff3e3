import type { AnyFastify } from '../../core/http/any-fastify.ts';
import type { CredentialResolver } from '../../core/http/auth.ts';
import { registerMcpEndpoint } from '../../core/mcp/endpoint.ts';
import type { RouteCatalog } from '../../core/mcp/route-tool.ts';
import { memoryTools, webhookTools } from './account-tools.ts';
import { goalTools, guardrailTools, personaTools, scenarioTools } from './authoring-tools.ts';
import { coachingTools } from './coaching-tools.ts';
import { meetingTools } from './meeting-tools.ts';
import { platformPrompts } from './prompts.ts';
import { platformResources } from './resources.ts';

const INSTRUCTIONS =
  'Understudy runs AI practice meetings: a scenario (script, persona, goals) is what is practised, a meeting is one session of it with a join link, and an analysis scores the participant after it ends. People are the participants; an assignment gives them a scenario to practise by a due date. Lists are paginated: pass `cursor` = the previous `next_cursor`. Errors carry the REST API’s `error.code`.';

/**
 * The platform's MCP server at `/mcp`: tools that are the /v1 routes (same keys, scopes, limits,
 * idempotency and audit), resources for what a model reads, prompts for common tasks.
 */
export function registerPlatformMcp(
  app: AnyFastify,
  options: { routes: RouteCatalog; authenticate: CredentialResolver; publicUrl: string; version: string },
): void {
  const { routes } = options;
  registerMcpEndpoint(app, {
    serverName: 'understudy-platform',
    serverVersion: options.version,
    instructions: INSTRUCTIONS,
    publicUrl: options.publicUrl,
    realm: 'understudy',
    authenticate: options.authenticate,
    tools: [
      ...scenarioTools(routes),
      ...personaTools(routes),
      ...goalTools(routes),
      ...guardrailTools(routes),
      ...meetingTools(routes),
      ...coachingTools(routes),
      ...memoryTools(routes),
      ...webhookTools(routes),
    ],
    resources: platformResources,
    prompts: platformPrompts,
  });
}
