/**
 * The end of a process on SIGTERM or SIGINT: `drain` stops accepting and lets what runs finish
 * (HTTP requests, live meetings handed over with 1012, other WebSockets closed with 1001, SMTP
 * sessions, jobs); if that takes longer than `timeoutMs`, `force` cuts what is left. Exit 0 after
 * a drain, 1 when it had to be forced or failed.
 */
export function onShutdown(options: {
  drain: () => Promise<void>;
  force: () => void;
  timeoutMs: number;
  log: { info(msg: string): void; error(obj: object, msg: string): void };
}) {
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      options.log.info(`${signal}: draining (at most ${options.timeoutMs} ms)`);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
      });
      Promise.race([options.drain().then(() => 'drained' as const), deadline]).then(
        (outcome) => {
          clearTimeout(timer);
          if (outcome === 'drained') {
            options.log.info('drained; exiting');
            process.exit(0);
          }
          options.log.error(
            {},
            `shutdown did not drain within ${options.timeoutMs} ms; cutting what is left`,
          );
          options.force();
          process.exit(1);
        },
        (error: unknown) => {
          options.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

/**
 * Closes a Fastify app for a drain: requests in flight finish, then their kept-alive connections
 * close too. Node closes the connections idle when close() begins, but one whose request was still
 * running stays open after its response until the client or the keep-alive timeout ends it.
 */
export async function closeHttpApp(app: {
  close(): PromiseLike<unknown>;
  server: { closeIdleConnections(): void };
}) {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}
