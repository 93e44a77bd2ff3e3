/** A background loop owned by the process: started by `serve` (unless RUN_WORKERS=false) and by `worker`. */
export interface BackgroundWorker {
  name: string;
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

/** A task run every `intervalMs`; a failure is reported and the next tick runs as usual. */
export function periodic(
  name: string,
  intervalMs: number,
  task: () => Promise<unknown>,
  onError: (e: unknown) => void,
): BackgroundWorker {
  let timer: NodeJS.Timeout | null = null;
  return {
    name,
    start() {
      timer = setInterval(() => task().catch(onError), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
    },
  };
}

export async function startWorkers(workers: BackgroundWorker[]): Promise<() => Promise<void>> {
  for (const worker of workers) await worker.start();
  return async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
  };
}
