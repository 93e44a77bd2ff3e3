import pino, { type DestinationStream, type Logger } from 'pino';

/** Query parameters that carry credentials (room tokens, WebSocket API keys) never reach the logs. */
const SECRET_PARAMS = /([?&](?:t|api_key|token)=)[^&#]*/gi;

export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_PARAMS, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  id?: string;
  ip?: string;
}

/**
 * The process's log destination: written asynchronously (a buffered SonicBoom on stdout), so a log
 * line never blocks a request on the terminal or the pipe. One per process, flushed
 * synchronously on exit so the last lines (a crash, a shutdown) are not lost.
 */
let sharedDestination: ReturnType<typeof pino.destination> | null = null;

export function asyncLogDestination(): ReturnType<typeof pino.destination> {
  if (sharedDestination) return sharedDestination;
  const destination = pino.destination({ dest: 1, sync: false });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Not yet open (exit during start-up): nothing was buffered that could be written.
    }
  });
  sharedDestination = destination;
  return destination;
}

export function createLogger(level: string, destination: DestinationStream = asyncLogDestination()): Logger {
  return pino(
    {
      level,
      serializers: {
        req: (request: LoggedRequest) => ({
          id: request.id,
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        }),
        res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], remove: true },
    },
    destination,
  );
}

/** The fields of the one access-log line written per request (see app/http-app.ts). */
export function accessLogFields(
  request: {
    id: string;
    method: string;
    url: string;
  },
  status: number,
  elapsedMs: number,
) {
  return {
    request_id: request.id,
    method: request.method,
    url: redactUrl(request.url),
    status,
    ms: Math.round(elapsedMs * 10) / 10,
  };
}
