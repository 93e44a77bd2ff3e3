import type { FastifyError, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../../core/db/unavailable.ts';
import { AppError } from '../../../core/http/errors.ts';
import type { AppInstance } from '../../../core/http/types.ts';

/** Requests whose multipart body is being read: an error raised meanwhile is the body's fault. */
const parsing = new WeakSet<FastifyRequest>();

const BOUNDARY = /;\s*boundary\s*=/i;

function malformed(request: FastifyRequest, error: unknown): AppError {
  const contentType = String(request.headers['content-type'] ?? '');
  const message = BOUNDARY.test(contentType)
    ? 'The request body is not valid multipart/form-data: it is malformed or cut short.'
    : 'The request body is not valid multipart/form-data: its Content-Type names no boundary.';
  return new AppError('invalid_request', message, { param: 'body', cause: error });
}

/**
 * The multipart parser (busboy) reports a missing boundary or a body cut short with plain errors,
 * which the app's error handler would answer as a 500. In this scope such an error, raised while
 * the body is being read, is a 400 naming `body`. Call before registering @fastify/multipart, so
 * the mark is set before its `preValidation` hook reads the body; the route calls the returned hook
 * first among its own `preValidation` hooks, once the body has been read.
 */
export function refuseMalformedMultipart(app: AppInstance) {
  app.addHook('preValidation', async (request) => {
    parsing.add(request);
  });
  app.setErrorHandler((error: FastifyError, request) => {
    const clientError = typeof error.statusCode === 'number' && error.statusCode < 500;
    const bodyError = !(error instanceof AppError) && !clientError && !isDatabaseUnavailable(error);
    if (parsing.has(request) && bodyError) throw malformed(request, error);
    throw error;
  });
  return async function bodyRead(request: FastifyRequest): Promise<void> {
    parsing.delete(request);
  };
}
