import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OutboundRequest, OutboundStreamResponse } from '../../../../core/outbound/index.ts';
import type { CustomAgentRuntimeConfig } from '../../../scenarios/custom-agent.ts';
import type { ReplyEvent } from '../types.ts';
import { createCustomAgentProvider, customAgentHeaders } from './provider.ts';

const config = (overrides: Partial<CustomAgentRuntimeConfig> = {}): CustomAgentRuntimeConfig => ({
  enabled: true,
  base_url: 'https://agent.example.com/v1',
  api_key: null,
  model: 'm',
  timeout_s: 1,
  extra_headers: {},
  ...overrides,
});

const sse = (...events: string[]) => events.map((data) => Buffer.from(`data: ${data}\n\n`));
const chunk = (delta: object) => JSON.stringify({ choices: [{ delta }] });

type Script = (request: OutboundRequest) => { status?: number; body: AsyncIterable<Buffer> } | 'fail';

function fakeClient(script: Script) {
  const requests: OutboundRequest[] = [];
  return {
    requests,
    async stream(request: OutboundRequest): Promise<OutboundStreamResponse> {
      requests.push(request);
      const plan = script(request);
      if (plan === 'fail') throw new Error('connection refused');
      return { status: plan.status ?? 200, headers: {}, body: plan.body, abort() {} };
    },
  };
}

async function* of(buffers: Buffer[], delayMs = 0, signal?: AbortSignal) {
  for (const buffer of buffers) {
    if (delayMs) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, delayMs);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      });
    }
    yield buffer;
  }
}

async function collect(
  provider: ReturnType<typeof createCustomAgentProvider>,
  signal = new AbortController().signal,
) {
  const events: ReplyEvent[] = [];
  for await (const event of provider.reply({
    messages: [{ role: 'user', content: 'hi' }],
    tools: [],
    signal,
  })) {
    events.push(event);
  }
  return events;
}

describe('custom agent provider', () => {
  it('streams text deltas and joins tool-call fragments', async () => {
    const client = fakeClient(() => ({
      body: of(
        sse(
          chunk({ content: 'Hel' }),
          chunk({ content: 'lo' }),
          chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'end_call', arguments: '{"rea' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'son":"x"}' } }] }),
          '[DONE]',
        ),
      ),
    }));
    const events = await collect(createCustomAgentProvider({ client, config: config() }));
    assert.deepEqual(events, [
      { type: 'delta', text: 'Hel' },
      { type: 'delta', text: 'lo' },
      {
        type: 'tool_call',
        call: { id: 'c1', type: 'function', function: { name: 'end_call', arguments: '{"reason":"x"}' } },
      },
    ]);
    const body = JSON.parse(String(client.requests[0]!.body));
    assert.equal(body.stream, true);
    assert.equal('tools' in body, false, 'no tools field when none are offered');
    assert.equal(client.requests[0]!.url, 'https://agent.example.com/v1/chat/completions');
  });

  it('retries once when nothing arrives within timeout_s, never after output', async () => {
    let calls = 0;
    const client = fakeClient((request) => {
      calls += 1;
      return calls === 1
        ? { body: of(sse(chunk({ content: 'late' })), 1_500, request.signal) }
        : { body: of(sse(chunk({ content: 'ok' }), '[DONE]')) };
    });
    const events = await collect(createCustomAgentProvider({ client, config: config({ timeout_s: 1 }) }));
    assert.deepEqual(events, [{ type: 'delta', text: 'ok' }]);
    assert.equal(client.requests.length, 2);
  });

  it('retries a 5xx or a connection failure once; a 4xx is not retried', async () => {
    for (const [first, expectedRequests] of [
      [{ status: 503, body: of([Buffer.from('busy')]) }, 2],
      ['fail', 2],
      [{ status: 401, body: of([Buffer.from('no')]) }, 1],
    ] as const) {
      let calls = 0;
      const client = fakeClient(() => {
        calls += 1;
        return calls === 1 ? first : { body: of(sse(chunk({ content: 'ok' }), '[DONE]')) };
      });
      const provider = createCustomAgentProvider({ client, config: config() });
      if (expectedRequests === 1) await assert.rejects(collect(provider), /HTTP 401/);
      else assert.deepEqual(await collect(provider), [{ type: 'delta', text: 'ok' }]);
      assert.equal(client.requests.length, expectedRequests);
    }
  });

  it('sends the customer’s key and extra headers, never over its own or reserved ones', () => {
    const headers = customAgentHeaders(
      config({
        api_key: 'sk-1',
        extra_headers: {
          'X-Tenant': 'acme',
          'Content-Type': 'text/plain',
          'X-Internal-Auth': 'x',
          authorization: 'y',
        },
      }),
    );
    assert.deepEqual(headers, {
      'X-Tenant': 'acme',
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: 'Bearer sk-1',
    });
    assert.equal('authorization' in customAgentHeaders(config()), false);
  });
});
