import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  ErrorCode as RpcErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnyFastify } from '../http/any-fastify.ts';
import { bearerToken } from '../http/auth.ts';
import { sendError } from '../http/error-handler.ts';
import { AppError } from '../http/errors.ts';
import { isAllowedOrigin } from './origin.ts';
import { type RestError, runRestCall } from './rest-call.ts';
import type { McpPrompt, McpResourceTemplate, McpTool } from './tool.ts';

export interface McpEndpointOptions {
  serverName: string;
  serverVersion: string;
  /** Shown to clients on initialise: what this server is for. */
  instructions: string;
  publicUrl: string;
  tools: McpTool[];
  resources: McpResourceTemplate[];
  prompts: McpPrompt[];
  /**
   * The service's own bearer verifier, the one its REST API uses: null for an unknown key. Only
   * whether a key is known matters here; what it may do is the REST route's check, per tool call.
   */
  authenticate: (token: string, request: FastifyRequest) => Promise<unknown | null>;
  /** The `realm` of `WWW-Authenticate`. */
  realm: string;
  /** The largest JSON-RPC body parsed (the app's limit when absent): tools that send mail need more. */
  bodyLimit?: number;
}

/**
 * Mounts `/mcp`: the Model Context Protocol over Streamable HTTP, stateless (a fresh SDK server
 * and transport per request: no session to pin to one process, any replica answers). The bearer
 * key is checked here only to answer 401 the way MCP clients expect; every tool call and resource
 * read then runs its REST call through `app.inject` with the caller's own Authorization header,
 * so authorisation is decided where it always is, by the REST route.
 */
export function registerMcpEndpoint(app: AnyFastify, options: McpEndpointOptions): void {
  const toolsByName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const promptsByName = new Map(options.prompts.map((prompt) => [prompt.name, prompt]));
  const challenge = `Bearer realm="${options.realm}"`;

  async function admit(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (!isAllowedOrigin(request.headers.origin, request.headers.host, options.publicUrl)) {
      sendError(
        reply,
        new AppError('permission_denied', 'Origin not allowed.', { param: 'origin' }),
        options.publicUrl,
      );
      return false;
    }
    const token = bearerToken(request);
    const principal = token ? await options.authenticate(token, request) : null;
    if (principal) return true;
    const error = token
      ? new AppError('invalid_api_key', 'Invalid API key or token.', {
          headers: { 'WWW-Authenticate': `${challenge}, error="invalid_token"` },
        })
      : new AppError('unauthorized', 'Missing credentials: send Authorization: Bearer <API key>.', {
          headers: { 'WWW-Authenticate': challenge },
        });
    sendError(reply, error, options.publicUrl);
    return false;
  }

  function buildServer(request: FastifyRequest): Server {
    const server = new Server(
      { name: options.serverName, version: options.serverVersion },
      {
        capabilities: { tools: {}, resources: {}, prompts: {} },
        instructions: options.instructions,
      },
    );
    const call = (rest: Parameters<typeof runRestCall>[1]) => runRestCall(app, rest, request);

    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: options.tools.map(({ rest: _rest, ...tool }) => tool),
    }));
    server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
      const tool = toolsByName.get(params.name);
      if (!tool) throw new McpError(RpcErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      const args = params.arguments ?? {};
      // As a REST body's unknown field is: refused, naming it, rather than silently dropped.
      const unknown = Object.keys(args).find(
        (name) => !Object.hasOwn(tool.inputSchema.properties ?? {}, name),
      );
      if (unknown !== undefined) {
        return toolError({
          code: 'parameter_invalid',
          message: `Received unknown argument: ${unknown}.`,
          param: unknown,
          status: 400,
        });
      }
      let rest: ReturnType<McpTool['rest']>;
      try {
        rest = tool.rest(args);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return toolError({
          code: error.code,
          message: error.message,
          param: error.param ?? null,
          status: 400,
        });
      }
      const outcome = await call(rest);
      if (outcome.ok) {
        return {
          structuredContent: outcome.body,
          content: [{ type: 'text', text: JSON.stringify(outcome.body, null, 2) }],
        };
      }
      return toolError(outcome.error);
    });

    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: options.resources.map(({ rest: _rest, ...template }) => template),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => {
      for (const template of options.resources) {
        const rest = template.rest(params.uri);
        if (!rest) continue;
        const outcome = await call(rest);
        if (!outcome.ok) {
          // A resource read has no error result: a JSON-RPC error carrying the API's error.
          throw new McpError(
            RpcErrorCode.InvalidParams,
            `${outcome.error.code}: ${outcome.error.message}`,
            outcome.error,
          );
        }
        return {
          contents: [
            { uri: params.uri, mimeType: template.mimeType, text: JSON.stringify(outcome.body, null, 2) },
          ],
        };
      }
      throw new McpError(RpcErrorCode.InvalidParams, `Unknown resource: ${params.uri}`);
    });

    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: options.prompts.map(({ messages: _messages, ...prompt }) => prompt),
    }));
    server.setRequestHandler(GetPromptRequestSchema, async ({ params }) => {
      const prompt = promptsByName.get(params.name);
      if (!prompt) throw new McpError(RpcErrorCode.InvalidParams, `Unknown prompt: ${params.name}`);
      const args = params.arguments ?? {};
      const missing = prompt.arguments.find((argument) => argument.required && !args[argument.name]);
      if (missing) throw new McpError(RpcErrorCode.InvalidParams, `Missing argument: ${missing.name}`);
      return { description: prompt.description, messages: prompt.messages(args) };
    });
    return server;
  }

  // The key and Origin are checked before the body is read: an anonymous caller never gets a
  // large body parsed only to be told 401.
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!(await admit(request, reply))) return reply;
  };
  // The JSON-RPC body is checked by the MCP transport, not by a route schema.
  app.post(
    '/mcp',
    { schema: { hide: true }, config: { takesBody: true }, bodyLimit: options.bodyLimit, onRequest },
    async (request, reply) => {
      const server = buildServer(request);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, withoutNullArguments(request.body));
      } catch (error) {
        // The reply is hijacked: Fastify's error handler no longer answers for us.
        request.log.error({ err: error }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }),
          );
        }
      }
    },
  );

  // Stateless: no server-initiated stream to open and no session to end (the spec's 405 answer).
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(405)
      .header('Allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this server is stateless; POST to /mcp.' },
        id: null,
      });
  app.get('/mcp', { schema: { hide: true }, onRequest }, notAllowed);
  app.delete('/mcp', { schema: { hide: true }, config: { takesBody: true }, onRequest }, notAllowed);
}

/**
 * `"arguments": null` on a tool call means no arguments, as an absent or `null` REST body means
 * no body (core/http/request-body.ts); the SDK's schema takes only an object or nothing.
 */
function withoutNullArguments(body: unknown): unknown {
  for (const message of Array.isArray(body) ? body : [body]) {
    const params = (message as { params?: { arguments?: unknown } } | null)?.params;
    if (params && typeof params === 'object' && params.arguments === null) delete params.arguments;
  }
  return body;
}

/**
 * A refused call. The error travels as JSON text only: clients (the SDK's among them) check any
 * structuredContent against the tool's output schema, which describes the success.
 */
function toolError(error: RestError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }, null, 2) }] };
}
