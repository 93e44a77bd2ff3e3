// The persona's brain in bench/voice, in its own process: a customer's agent on loopback
// (OpenAI-compatible streaming chat completions, as in bench/live), answering every turn at once
// with a two-sentence reply. Using it rather than the embedded offline persona engine keeps the
// reply's compute outside the service and measurable: for each request the agent notes when the
// request's last byte arrived and when it wrote its first byte (wall clock, comparable with the
// service's engine timings), and the benchmark subtracts the difference, as it does the speech
// engines' time, from the latency the client sees. GET /bench/replies answers (and forgets) them.
// Prints one JSON line with its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { wallNow } from './timed-engines.ts';

export interface AgentReply {
  /** The request's last byte arrived. */
  receivedAt: number;
  /** The first SSE byte was written. */
  firstByteAt: number;
  /** The request came on a new connection (keep-alive had lapsed). */
  newConnection: boolean;
}

const chunk = (content: string) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;

let replies: AgentReply[] = [];
let turn = 0;
const server = createServer((req, res) => {
  if (req.url === '/bench/replies') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(replies));
    replies = [];
    return;
  }
  const socket = req.socket as typeof req.socket & { served?: boolean };
  const newConnection = !socket.served;
  socket.served = true;
  req.resume();
  req.on('end', () => {
    const receivedAt = wallNow();
    turn += 1;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk('Thanks, that is helpful. '));
    replies.push({ receivedAt, firstByteAt: wallNow(), newConnection });
    res.write(chunk(`What did you learn from project ${turn}?`));
    res.end('data: [DONE]\n\n');
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
