/**
 * The benchmark's receiver, on its own thread (its own event loop, like a separate service):
 * answers 200 at once and notes when each event id first arrived.
 */
import { createServer } from 'node:http';

import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';

const port = parentPort;
let firstArrival = new Map();
let requests = 0;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    requests += 1;
    // The envelope id sits at the start of the body: `{"id":"<uuid>",...`.
    const id = Buffer.concat(chunks).toString('utf8', 7, 43);
    if (!firstArrival.has(id)) firstArrival.set(id, at);
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
});
server.keepAliveTimeout = 60_000;

port.on('message', (message) => {
  if (message.type === 'reset') {
    firstArrival = new Map();
    requests = 0;
    port.postMessage({ type: 'reset' });
  } else if (message.type === 'count') {
    port.postMessage({ type: 'count', requests });
  } else if (message.type === 'report') {
    port.postMessage({ type: 'report', requests, arrivals: [...firstArrival] });
  } else {
    server.closeAllConnections();
    server.close(() => port.postMessage({ type: 'closed' }));
  }
});

server.listen(0, '127.0.0.1', () => {
  port.postMessage({ type: 'listening', port: server.address().port });
});
