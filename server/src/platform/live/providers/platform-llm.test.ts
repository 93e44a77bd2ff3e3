import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LlmClient, LlmError, type StreamEvent, type StreamOptions } from '../../../core/llm/index.ts';
import { createPlatformLlmProvider } from './platform-llm.ts';
import type { ReplyEvent } from './types.ts';

type Attempt = Array<StreamEvent | LlmError>;

/** An LlmClient whose n-th stream plays the n-th attempt: its events in order, throwing at an error. */
function fakeLlm(attempts: Attempt[]) {
  const calls: StreamOptions[] = [];
  const client: LlmClient = {
    model: 'fake',
    completeJson: () => Promise.reject(new Error('not used')),
    async *stream(options) {
      calls.push(options);
      for (const item of attempts[calls.length - 1] ?? []) {
        if (item instanceof LlmError) throw item;
        yield item;
      }
    },
  };
  return { client, calls };
}

async function collect(client: LlmClient): Promise<ReplyEvent[]> {
  const provider = createPlatformLlmProvider(client);
  const events: ReplyEvent[] = [];
  const request = {
    messages: [{ role: 'user' as const, content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
  };
  for await (const event of provider.reply(request)) events.push(event);
  return events;
}

describe('platform LLM provider', () => {
  it('sends the request once more when the first failed before any text (5xx, 429, timeout, network)', async () => {
    for (const failure of [
      new LlmError('http_error', 'down', 503),
      new LlmError('http_error', 'slow down', 429),
      new LlmError('timeout', 'late'),
      new LlmError('network_error', 'refused'),
    ]) {
      const { client, calls } = fakeLlm([[failure], [{ type: 'text', text: 'Hello.' }]]);
      assert.deepEqual(await collect(client), [{ type: 'delta', text: 'Hello.' }], failure.message);
      assert.equal(calls.length, 2);
      assert.deepEqual(calls[0]!.messages, calls[1]!.messages);
      assert.ok(calls[0]!.firstByteTimeoutMs! <= 10_000, 'a live turn does not wait the client default');
    }
  });

  it('throws after the retry failed too, so the session falls back', async () => {
    const { client, calls } = fakeLlm([
      [new LlmError('http_error', 'a', 500)],
      [new LlmError('http_error', 'b', 502)],
    ]);
    await assert.rejects(collect(client), /b/);
    assert.equal(calls.length, 2);
  });

  it('does not retry a refusal (4xx) nor after text went out', async () => {
    const refused = fakeLlm([[new LlmError('http_error', 'bad key', 401)], [{ type: 'text', text: 'no' }]]);
    await assert.rejects(collect(refused.client), /bad key/);
    assert.equal(refused.calls.length, 1);

    const cut = fakeLlm([[{ type: 'text', text: 'Half a ' }, new LlmError('timeout', 'went silent')], []]);
    const provider = createPlatformLlmProvider(cut.client);
    const seen: ReplyEvent[] = [];
    await assert.rejects(async () => {
      for await (const event of provider.reply({
        messages: [],
        tools: [],
        signal: new AbortController().signal,
      }))
        seen.push(event);
    }, /went silent/);
    assert.deepEqual(seen, [{ type: 'delta', text: 'Half a ' }]);
    assert.equal(cut.calls.length, 1);
  });
});
