import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The SDK's own MCP client, connected over real HTTP to `<baseUrl>/mcp` with `key` as bearer. */
export async function connectMcp(baseUrl: string, key: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'understudy-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}`, ...headers } },
  });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST to /mcp (for the refusals a client library would hide). */
export function postMcp(baseUrl: string, headers: Record<string, string>) {
  return fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
}

/** The API error a failed tool call carries in its text content. */
export function toolError(result: Record<string, unknown>) {
  if (result.isError !== true) throw new Error(`expected a tool error, got ${JSON.stringify(result)}`);
  const [first] = result.content as { type: string; text: string }[];
  return JSON.parse(first!.text) as {
    error: { code: string; message: string; param: string | null; status: number };
  };
}

/** The structured content of a tool call that must have succeeded. */
export function toolResult(result: Record<string, unknown>): Record<string, any> {
  if (result.isError === true) throw new Error(`expected success, got ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, any>;
}
