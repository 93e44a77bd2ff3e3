import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from 'typebox';
import {
  createLlmClient,
  LlmError,
  type StreamEvent,
  ToolCallAccumulator,
} from '../../src/core/llm/index.ts';
import { sseData } from '../../src/core/llm/sse.ts';
import { startFakeLlm } from '../fixtures/scripted-llm.ts';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('LLM client', () => {
  let llm: Awaited<ReturnType<typeof startFakeLlm>>;
  before(async () => {
    llm = await startFakeLlm();
  });
  after(() => llm.close());

  test('stream() yields text, tool-call fragments, finish and usage until [DONE]', async () => {
    const client = createLlmClient({ baseUrl: llm.baseUrl, apiKey: 'k', model: 'm' });
    llm.replies.push({
      kind: 'stream',
      delayMs: 5,
      events: [
        ': keep-alive\n\n',
        chunk({ role: 'assistant', content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({
          tool_calls: [
            { index: 0, id: 'call_1', type: 'function', function: { name: 'end_call', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"reason":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"done"}' } }] }, 'tool_calls'),
        `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } })}\r\n\r\n`,
        'data: [DONE]\n\n',
      ],
    });
    const events = await collect(
      client.stream({
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'end_call', parameters: { type: 'object' } } }],
      }),
    );
    const text = events
      .filter((e): e is Extract<StreamEvent, { type: 'text' }> => e.type === 'text')
      .map((e) => e.text);
    assert.equal(text.join(''), 'Hello');
    const calls = new ToolCallAccumulator();
    for (const event of events) if (event.type === 'tool_call') calls.add(event);
    assert.deepEqual(calls.result(), [
      { id: 'call_1', type: 'function', function: { name: 'end_call', arguments: '{"reason":"done"}' } },
    ]);
    assert.deepEqual(
      events.find((e) => e.type === 'finish'),
      { type: 'finish', reason: 'tool_calls' },
    );
    assert.deepEqual(
      events.find((e) => e.type === 'usage'),
      {
        type: 'usage',
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
      },
    );
    const request = llm.requests.at(-1)!;
    assert.equal(request.body.stream, true);
    assert.equal(request.body.model, 'm');
    assert.ok(Array.isArray(request.body.tools));
    assert.equal(request.headers.authorization, 'Bearer k');
  });

  test('timeouts and HTTP errors surface as LlmError', async () => {
    const client = createLlmClient({ baseUrl: llm.baseUrl, apiKey: null, model: 'm' });
    llm.replies.push({ kind: 'hang' });
    await assert.rejects(
      collect(client.stream({ messages: [{ role: 'user', content: 'hi' }], firstByteTimeoutMs: 100 })),
      (error: unknown) => error instanceof LlmError && error.code === 'timeout',
    );
    llm.replies.push({
      kind: 'stream',
      delayMs: 300,
      events: [chunk({ content: 'a' }), chunk({ content: 'b' })],
    });
    await assert.rejects(
      collect(client.stream({ messages: [{ role: 'user', content: 'hi' }], idleTimeoutMs: 100 })),
      (error: unknown) => error instanceof LlmError && error.code === 'timeout',
    );
    llm.replies.push({ kind: 'error', status: 429, body: 'slow down' });
    await assert.rejects(
      collect(client.stream({ messages: [{ role: 'user', content: 'hi' }] })),
      (error: unknown) => error instanceof LlmError && error.code === 'http_error' && error.status === 429,
    );
    llm.replies.push({ kind: 'hang' });
    await assert.rejects(
      client.completeJson({
        messages: [{ role: 'user', content: 'x' }],
        schema: Type.Object({}),
        timeoutMs: 100,
      }),
      (error: unknown) => error instanceof LlmError && error.code === 'timeout',
    );
    const unreachable = createLlmClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: null, model: 'm' });
    await assert.rejects(
      unreachable.completeJson({ messages: [{ role: 'user', content: 'x' }], schema: Type.Object({}) }),
      (error: unknown) => error instanceof LlmError && error.code === 'network_error',
    );
  });

  test('completeJson() validates against the schema and repairs once', async () => {
    const client = createLlmClient({ baseUrl: llm.baseUrl, apiKey: null, model: 'm' });
    const schema = Type.Object({ answer: Type.Integer({ minimum: 1 }) }, { additionalProperties: false });
    llm.replies.push({ kind: 'json', content: '{"answer":0}' }, { kind: 'json', content: '{"answer":42}' });
    const { value, usage } = await client.completeJson({
      messages: [{ role: 'user', content: 'x' }],
      schema,
    });
    assert.deepEqual(value, { answer: 42 });
    assert.equal(usage?.total_tokens, 30);
    llm.replies.push({ kind: 'json', content: '{}' }, { kind: 'json', content: '{"answer":"x"}' });
    await assert.rejects(
      client.completeJson({ messages: [{ role: 'user', content: 'x' }], schema }),
      (error: unknown) => error instanceof LlmError && error.code === 'invalid_reply',
    );
  });

  test('sseData() joins multi-line data and tolerates CRLF split across chunks', async () => {
    const encoder = new TextEncoder();
    async function* body() {
      for (const part of ['data: a\r', '\ndata: b\r\n\r', '\n', 'data: c\n\n']) yield encoder.encode(part);
    }
    assert.deepEqual(await collect(sseData(body())), ['a\nb', 'c']);
  });
});
