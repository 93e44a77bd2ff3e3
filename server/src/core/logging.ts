import pino, { type Logger } from 'pino';

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

export function createLogger(level: string): Logger {
  return pino({
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
  });
}
