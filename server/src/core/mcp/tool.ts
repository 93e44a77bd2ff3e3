/**
 * The MCP kernel's vocabulary. A tool here is not an implementation: it names the REST call it IS
 * (`rest(args)`), so a tool call runs through the same route, service function, scopes, rate
 * limits, idempotency and audit as that call (see endpoint.ts).
 */

/** A JSON Schema object (TypeBox schemas are JSON Schema already). */
export type JsonSchema = { type: 'object'; properties?: Record<string, unknown>; [key: string]: unknown };

/** The REST call a tool or a resource read performs, relative to the app root (`/v1/…`). */
export interface RestCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** Sent as `Idempotency-Key` (tools whose input has `idempotency_key`). */
  idempotencyKey?: string;
}

export interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint?: boolean;
}

export interface McpTool {
  name: string;
  title: string;
  /** Written for a model: what the tool does, when to use it, what comes back. */
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: McpToolAnnotations;
  rest(args: Record<string, unknown>): RestCall;
}

/** A family of readable documents, e.g. `understudy://meetings/{id}/transcript`. */
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** The REST call that reads the resource, or null when `uri` is not one of this template's. */
  rest(uri: string): RestCall | null;
}

export interface McpPromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content:
    | { type: 'text'; text: string }
    | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };
}

export interface McpPrompt {
  name: string;
  title: string;
  description: string;
  arguments: McpPromptArgument[];
  /** Pure: builds the messages from the arguments (they name resources the client then reads). */
  messages(args: Record<string, string>): McpPromptMessage[];
}

/** Matches `uri` against a template with `{name}` placeholders; the decoded values, or null. */
export function matchUriTemplate(template: string, uri: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[a-z_]+\})/i)
    .map((part) => {
      const placeholder = /^\{([a-z_]+)\}$/i.exec(part);
      if (!placeholder) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(placeholder[1]!);
      return '([^/?#]+)';
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (!match) return null;
  try {
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
  } catch {
    return null;
  }
}

/** A JSON document read by one GET: the `{placeholders}` of the URI fill the REST path, encoded. */
export function jsonResource(
  spec: Omit<McpResourceTemplate, 'rest' | 'mimeType'> & { path: (vars: Record<string, string>) => string },
): McpResourceTemplate {
  const { path, ...template } = spec;
  return {
    ...template,
    mimeType: 'application/json',
    rest(uri) {
      const vars = matchUriTemplate(spec.uriTemplate, uri);
      if (!vars) return null;
      const encoded = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, encodeURIComponent(v)]));
      return { method: 'GET', url: path(encoded) };
    },
  };
}
