// The baseline of bench/voice, measured in the same run: a bare WebSocket round trip on loopback
// (echo-server.ts), microphone frame sent → first byte of an audio reply received. It is what any
// voice service on a WebSocket pays at least for the two hops the platform's share also holds.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const FRAME = Buffer.alloc(640);

export async function measureBaseline(base: string, samples: number, warmup: number): Promise<number[]> {
  const socket = new WebSocket(base.replace(/^http/, 'ws'));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let arrived: (() => void) | null = null;
  socket.on('message', (_raw, isBinary) => {
    if (isBinary) arrived?.();
  });
  const times: number[] = [];
  try {
    for (let i = 0; i < warmup + samples; i += 1) {
      const received = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const sentAt = performance.now();
      socket.send(FRAME, { binary: true });
      await received;
      if (i >= warmup) times.push(performance.now() - sentAt);
      // Frames leave a microphone every 20 ms; do not measure a burst.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    socket.close();
  }
  return times;
}
