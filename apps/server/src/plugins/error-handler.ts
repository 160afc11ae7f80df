import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MESSAGES, plainIssueMessage } from '@switchboard/contracts';
import { AppError } from '../lib/app-error';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** One error handler: every error leaves as application/problem+json with a stable code. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const send = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) =>
      reply
        .status(status)
        .type('application/problem+json')
        .send({ type: 'about:blank', title: TITLES[status] ?? 'Error', status, detail, code, requestId: request.id, ...extra });

    if (error instanceof AppError) {
      if (error.extra.retryAfterSeconds) void reply.header('retry-after', String(error.extra.retryAfterSeconds));
      return send(error.statusCode, error.code, error.detail, {
        ...(error.extra.invalidParams ? { invalidParams: error.extra.invalidParams } : {}),
        ...(error.extra.flags ? { flags: error.extra.flags } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // Every reason in plain words with the field's label (issue #6 §6); `name` stays the field's path for clients.
      const invalidParams = error.validation.map((issue) => {
        const path = issue.instancePath.split('/').filter((segment) => segment !== '');
        return {
          name: path.join('.') || String(error.validationContext ?? ''),
          reason: plainIssueMessage({ ...issue.params, code: issue.keyword, path, message: issue.message }),
        };
      });
      const first = invalidParams[0];
      return send(400, 'validation', first ? first.reason : 'The request is not valid.', { invalidParams });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return send(500, 'internal', 'Something went wrong on our side.');
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return send(429, 'rate_limited', MESSAGES.tooManyRequests);
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return send(status, 'internal', 'Something went wrong on our side.');
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') return send(413, 'file_size', MESSAGES.fileSize, { flags: { fileSize: true } });
    return send(status, status === 404 ? 'not_found' : 'validation', error.message);
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .type('application/problem+json')
      .send({ type: 'about:blank', title: 'Not Found', status: 404, detail: MESSAGES.notFound, code: 'not_found', requestId: request.id }),
  );
}
