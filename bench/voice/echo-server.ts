// Baseline server for bench/voice: a bare WebSocket server (the same `ws` library, frame limits and
// frame shapes as the room) that answers every binary microphone frame at once with an
// `agent.audio` header and one binary frame of PCM, computing and storing nothing. The benchmark's
// baseline is the round trip through it: microphone frame sent → persona audio byte received.
// Prints one JSON line with its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

/** One second of 16 kHz audio, about the first sentence of a reply. */
const REPLY_PCM = Buffer.alloc(32_000);

const http = createServer((_req, res) => {
  res.statusCode = 404;
  res.end();
});
const wss = new WebSocketServer({ server: http, maxPayload: 64 * 1024 });
wss.on('connection', (socket) => {
  let seq = 0;
  socket.on('message', (_raw, isBinary) => {
    if (!isBinary) return;
    socket.send(
      JSON.stringify({
        type: 'agent.audio',
        turn_id: 'baseline',
        seq: seq++,
        text: 'Thanks.',
        encoding: 'pcm_s16le',
        sample_rate: 16000,
        bytes: REPLY_PCM.length,
        start_ms: 0,
      }),
    );
    socket.send(REPLY_PCM, { binary: true });
  });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
console.log(JSON.stringify({ base: `http://127.0.0.1:${(http.address() as AddressInfo).port}` }));
process.on('SIGTERM', () => {
  wss.close();
  http.close();
  process.exit(0);
});
