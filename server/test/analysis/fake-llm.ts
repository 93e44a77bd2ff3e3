import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string | null }>;
  response_format?: { type: string; json_schema?: { name: string } };
}

/** What the fake answers: the message content, or an HTTP status with a body. */
export type FakeAnswer = { content: string } | { status: number; body: string };

/**
 * A local OpenAI-compatible chat-completions server on 127.0.0.1. Each request is answered by
 * `respond`, which sees the parsed body (and how many requests of the same schema name came before).
 */
export class FakeLlm {
  readonly requests: ChatRequest[] = [];
  respond: (request: ChatRequest, index: number) => FakeAnswer = () => ({ content: '{}' });
  #server: Server | null = null;

  static async start(): Promise<FakeLlm> {
    const fake = new FakeLlm();
    fake.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
          res.writeHead(404).end();
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
        const name = schemaName(body);
        const index = fake.requests.filter((r) => schemaName(r) === name).length;
        fake.requests.push(body);
        const answer = fake.respond(body, index);
        if ('status' in answer) {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            model: body.model,
            choices: [
              { index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' },
            ],
            usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => fake.#server!.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    const { port } = this.#server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  ofSchema(name: string): ChatRequest[] {
    return this.requests.filter((request) => schemaName(request) === name);
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export function schemaName(request: ChatRequest): string {
  return request.response_format?.json_schema?.name ?? request.response_format?.type ?? 'none';
}

/** The goals the analysis prompt lists (JSON after "Goals (JSON):"). */
export function goalsInPrompt(
  request: ChatRequest,
): Array<{ goal_id: string; name: string; score_min: number; score_max: number }> {
  const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
  const match = /Goals \(JSON\):\n(.*)\n/.exec(user);
  return match ? JSON.parse(match[1]!) : [];
}

/** A reply that satisfies the analysis schema: every goal scored at the top of its range. */
export function validAnalysis(request: ChatRequest): string {
  return JSON.stringify({
    title: 'Backend screen with Priya',
    summary: 'Priya gave specific, well-structured answers about latency, trade-offs and incidents.',
    call_summary:
      'Morgan interviewed Priya for a backend role; they covered a latency fix and incident handling.',
    strengths: ['Concrete numbers', 'Clear trade-off reasoning'],
    growth_areas: ['Ask more about the team'],
    recommendations: ['Prepare two questions about how success is measured.'],
    highlights: [{ title: 'Cut p99 latency from 900 ms to 120 ms', timestamp: '00:30' }],
    goal_results: goalsInPrompt(request).map((goal) => ({
      goal_id: goal.goal_id,
      score: goal.score_max,
      short_description: `Model: strong on ${goal.name}`,
      long_description: `Model evaluation of ${goal.name}.`,
      feedback: `Model feedback for ${goal.name}.`,
    })),
  });
}
