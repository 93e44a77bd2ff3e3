import type { WebSocket } from 'ws';

/** Close code and reason of a socket whose client stopped reading (docs/reliability.md, "Bounds and timeouts"). */
export const WS_BACKLOGGED = { code: 1008, reason: 'send buffer full: the client is not reading' } as const;

/** How long the close frame may wait behind the backlog before the connection is cut. */
const CLOSE_GRACE_MS = 1000;

/**
 * Sends `data` on `socket` unless the frames already queued for it (`bufferedAmount`: ws's queue
 * and the TCP socket's) pass `maxBufferedBytes`: a client that does not read is then closed
 * instead of holding an ever-growing buffer of this process's memory. Returns whether it was sent.
 */
export function sendBounded(
  socket: WebSocket,
  data: string | Buffer,
  maxBufferedBytes: number,
  options: { binary?: boolean } = {},
): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  if (socket.bufferedAmount > maxBufferedBytes) {
    closeBacklogged(socket);
    return false;
  }
  socket.send(data, options);
  return true;
}

function closeBacklogged(socket: WebSocket): void {
  socket.close(WS_BACKLOGGED.code, WS_BACKLOGGED.reason);
  // The close frame queues behind what the client is not reading: cut the connection soon after.
  setTimeout(() => {
    if (socket.readyState !== socket.CLOSED) socket.terminate();
  }, CLOSE_GRACE_MS).unref();
}
