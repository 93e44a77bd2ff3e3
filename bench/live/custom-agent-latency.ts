// bench/live (a): the latency the platform adds on the custom-agent path. A local OpenAI-compatible
// streaming server plays the customer's agent; for each turn it notes the instant it writes its
// first SSE byte, and the participant client (this process, over the realtime WebSocket) notes the
// instant the first `agent.delta` arrives. Added latency = delta arrival − first SSE byte.
// Baseline: the same SSE stream consumed directly by an HTTP client in this process (first byte
// written → first chunk read), in the same run. Target: p99 added latency < 10 ms.
// Usage: npx tsx bench/live/custom-agent-latency.ts   (DATABASE_URL optional; SAMPLES overrides 500)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { benchDatabaseUrl, ratio } from '../lib/postgres.ts';
import {
  BenchParticipant,
  createMeeting,
  deadline,
  fmt,
  percentile,
  startServer,
  stopServer,
} from './lib.ts';

const SAMPLES = Number(process.env.SAMPLES ?? 500);
const WARMUP = 30;
const TURNS_PER_MEETING = 50;
/** The agent "thinks" this long before its first byte, so the request is fully settled first. */
const THINK_MS = 15;
const LIMIT_MS = 180_000;
const PAUSE_MS = 40;

let firstByteAt = 0;
const agent = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    setTimeout(() => {
      const chunk = (content: string) =>
        `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;
      firstByteAt = performance.now();
      res.write(chunk('Thanks, '));
      res.write(chunk('tell me more.'));
      res.end('data: [DONE]\n\n');
    }, THINK_MS);
  });
});
await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
const agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/v1`;

const { url, drop } = benchDatabaseUrl('live_agent');
const { info, child } = await startServer('bench/live/server.ts', { DATABASE_URL: url, AGENT_URL: agentUrl });
const limit = deadline(LIMIT_MS, 'custom-agent latency benchmark');

async function viaPlatform(turns: number): Promise<number[]> {
  const samples: number[] = [];
  while (samples.length < turns) {
    const meeting = await createMeeting(info, info.agentScenarioId!);
    const p = await BenchParticipant.connect(info.base, meeting.id, meeting.token);
    p.send({ type: 'join', consent: { recording: false } });
    await p.until('agent.message');
    for (let i = 0; i < TURNS_PER_MEETING && samples.length < turns; i += 1) {
      p.send({ type: 'utterance', text: `Answer number ${i}.`, final: true });
      const { at } = await p.until('agent.delta');
      samples.push(at - firstByteAt);
      await p.until('agent.message');
      // Stay under the room's 20 utterances per second (docs/realtime.md).
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
    p.send({ type: 'leave' });
    await p.until('ended');
    p.close();
  }
  return samples;
}

async function direct(turns: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < turns; i += 1) {
    const response = await fetch(`${agentUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        model: 'm',
        stream: true,
        messages: [{ role: 'user', content: `Answer ${i}` }],
      }),
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    samples.push(performance.now() - firstByteAt);
    if (!first.done) while (!(await reader.read()).done) {}
  }
  return samples;
}

try {
  await Promise.race([
    (async () => {
      await viaPlatform(WARMUP);
      await direct(WARMUP);
      const platform = await viaPlatform(SAMPLES);
      const baseline = await direct(SAMPLES);
      const p50 = percentile(platform, 50);
      const p99 = percentile(platform, 99);
      const b50 = percentile(baseline, 50);
      const b99 = percentile(baseline, 99);
      console.log(
        `custom-agent path, ${SAMPLES} turns (first SSE byte written → first agent.delta at the participant)`,
      );
      console.log(`  platform   p50 ${fmt(p50)}  p99 ${fmt(p99)}  max ${fmt(Math.max(...platform))}`);
      console.log(`  baseline   p50 ${fmt(b50)}  p99 ${fmt(b99)}  (the same SSE read directly by a client)`);
      console.log(`  ratio      p50 ${ratio(p50, b50)}  p99 ${ratio(p99, b99)}`);
      console.log(`  added      p50 ${fmt(p50 - b50)}  p99 ${fmt(p99 - b99)} over the baseline`);
      console.log(`  target     p99 < 10 ms: ${p99 < 10 ? 'met' : 'NOT met'}`);
    })(),
    limit.promise,
  ]);
} finally {
  limit.cancel();
  await stopServer(child);
  agent.close();
  drop();
}
