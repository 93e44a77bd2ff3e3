// Baseline server for bench/live/sessions.ts: a bare WebSocket server (the same `ws` library and
// frame shapes as the room) that answers every final utterance at once with two agent.delta frames
// and an agent.message, storing and computing nothing. Prints one JSON line with its URL; GET
// /memory answers the process's memory after a full GC.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

let connections = 0;
const http = createServer((req, res) => {
  if (req.url === '/memory') {
    const gc = (globalThis as { gc?: () => void }).gc;
    for (let i = 0; i < 3; i += 1) gc?.();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ...process.memoryUsage(), sessions: connections, gc: Boolean(gc) }));
    return;
  }
  res.statusCode = 404;
  res.end();
});
const wss = new WebSocketServer({ server: http, maxPayload: 64 * 1024 });
wss.on('connection', (socket) => {
  connections += 1;
  let turn = 0;
  socket.on('close', () => {
    connections -= 1;
  });
  socket.on('message', (raw) => {
    const frame = JSON.parse(raw.toString()) as { type: string };
    const send = (value: object) => socket.send(JSON.stringify(value));
    if (frame.type === 'join') {
      send({ type: 'joined', meeting: { status: 'active' } });
      send({ type: 'agent.delta', turn_id: 'welcome', text: 'Hello, I am Morgan. ' });
      send({
        type: 'agent.message',
        turn_id: 'welcome',
        text: 'Hello, I am Morgan. Shall we begin?',
        interrupted: false,
      });
    } else if (frame.type === 'utterance') {
      turn += 1;
      const id = `turn-${turn}`;
      send({ type: 'agent.delta', turn_id: id, text: 'Thanks for that. ' });
      send({ type: 'agent.delta', turn_id: id, text: 'Can you tell me about project two?' });
      send({
        type: 'agent.message',
        turn_id: id,
        text: 'Thanks for that. Can you tell me about project two?',
        interrupted: false,
      });
    } else if (frame.type === 'leave') {
      send({ type: 'ended', reason: 'participant_left' });
      socket.close(1000);
    }
  });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
console.log(JSON.stringify({ base: `http://127.0.0.1:${(http.address() as AddressInfo).port}` }));
process.on('SIGTERM', () => {
  wss.close();
  http.close();
  process.exit(0);
});
