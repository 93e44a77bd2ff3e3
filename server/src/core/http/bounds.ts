import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnyFastify } from './any-fastify.ts';
import { renderError } from './error-handler.ts';
import { AppError } from './errors.ts';

/**
 * Bounds on what a client may hold open or send (docs/reliability.md, "Bounds and timeouts"): the
 * answers Node and the body timer give outside Fastify's reply, written in the spec's error shape.
 */

/** The request id each raw request was given (by `genReqId`), for answers written on its socket. */
const requestIds = new WeakMap<IncomingMessage, string>();

export function rememberRequestId(request: IncomingMessage, id: string): string {
  requestIds.set(request, id);
  return id;
}

/** The response Node has in flight on a socket (an undocumented but long-stable field). */
function inFlightResponse(socket: Socket): { headersSent: boolean; req?: IncomingMessage } | null {
  return (
    (socket as Socket & { _httpMessage?: { headersSent: boolean; req?: IncomingMessage } })._httpMessage ??
    null
  );
}

/**
 * Writes `error` as a whole HTTP/1.1 response straight on the socket and closes it: for failures
 * where Fastify has no reply to send it with (a malformed request) or is still reading the body.
 * A response already started on the socket cannot be followed by another: the socket is only closed.
 */
export function answerOnSocket(
  socket: Socket,
  error: AppError,
  requestId: string,
  docsBaseUrl: string,
): void {
  if (socket.destroyed) return;
  if (!socket.writable || inFlightResponse(socket)?.headersSent) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(renderError(error, requestId, docsBaseUrl));
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    ...Object.entries(error.headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  // Destroyed once written: the client may still be sending, and nothing more of it is read.
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  socket.setTimeout(1000, () => socket.destroy());
}

/** Node's parser errors (llhttp `HPE_*` codes and its own timeouts), as the spec's errors. */
export function clientErrorToAppError(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout', 'The request headers did not arrive in time.', { cause: error });
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', 'The request line and headers are too large.', {
        param: 'headers',
        cause: error,
      });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('payload_too_large', 'The chunk extensions of the body are too large.', {
        param: 'body',
        cause: error,
      });
    case 'HPE_INVALID_METHOD':
      return new AppError('invalid_request', 'The HTTP method is not one this server knows.', {
        param: 'method',
        cause: error,
      });
    case 'HPE_INVALID_URL':
      return new AppError('invalid_request', 'The request path holds characters that are not allowed.', {
        param: 'path',
        cause: error,
      });
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new AppError('invalid_request', 'Send Content-Length or Transfer-Encoding, not both.', {
        param: 'Content-Length',
        cause: error,
      });
    case 'HPE_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_request', 'Content-Length is not a valid length.', {
        param: 'Content-Length',
        cause: error,
      });
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new AppError(
        'invalid_request',
        'Transfer-Encoding must end with chunked, without Content-Length.',
        {
          param: 'Transfer-Encoding',
          cause: error,
        },
      );
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_STRICT':
    case 'HPE_CR_EXPECTED':
    case 'HPE_LF_EXPECTED':
      return new AppError('invalid_request', 'The chunked body is malformed.', {
        param: 'body',
        cause: error,
      });
    default:
      return new AppError('invalid_request', 'The request is not valid HTTP/1.1.', { cause: error });
  }
}

/**
 * Fastify's `clientErrorHandler`: what Node's parser refuses (bad framing, an unknown method, 431,
 * the headers timeout) never reaches a route; it is answered here where the socket still allows.
 */
export function clientErrorHandler(
  docsBaseUrl: string,
  mintRequestId: () => string,
  log: (error: AppError) => void,
) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const appError = clientErrorToAppError(error);
    log(appError);
    const pending = inFlightResponse(socket)?.req;
    const requestId = (pending && requestIds.get(pending)) ?? mintRequestId();
    answerOnSocket(socket, appError, requestId, docsBaseUrl);
  };
}

/** Whether the request announces a body (a chunked one, or a non-zero Content-Length). */
export function announcesBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

type RouteSchema = { body?: unknown; streamedBody?: unknown; consumes?: unknown } | undefined;

/** A media upload streamed by its handler: it may take the longer upload timeout. */
function isStreamedUpload(schema: RouteSchema): boolean {
  return Boolean(schema?.streamedBody);
}

/**
 * Cuts a request whose body has not fully arrived `bodyTimeoutMs` after its headers (streamed
 * uploads: `uploadTimeoutMs`) with a 408 on the socket. Node's own `requestTimeout` is one value
 * for every route, which a 500 MiB upload cannot share with a JSON body.
 */
export function installBodyTimeout(
  app: AnyFastify,
  bounds: { bodyTimeoutMs: number; uploadTimeoutMs: number },
  docsBaseUrl: string,
): void {
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const raw = request.raw;
    if (raw.complete || !announcesBody(raw.headers)) return done();
    const upload = isStreamedUpload(request.routeOptions.schema as RouteSchema);
    const timer = setTimeout(
      () => {
        if (raw.complete || reply.sent) return;
        request.log.info({ code: 'request_timeout' }, 'request body timed out');
        const error = new AppError('request_timeout', 'The request body did not arrive in time.', {
          param: 'body',
        });
        answerOnSocket(raw.socket, error, request.id, docsBaseUrl);
      },
      upload ? bounds.uploadTimeoutMs : bounds.bodyTimeoutMs,
    );
    // The listening server keeps the process alive, not this timer (nor one left by an injected request).
    timer.unref();
    const stop = () => clearTimeout(timer);
    raw.once('end', stop);
    reply.raw.once('finish', stop);
    reply.raw.once('close', stop);
    done();
  });
}
