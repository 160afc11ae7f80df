import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MESSAGES, plainIssueMessage, type TErrorCode } from '@switchboard/contracts';
import { AppError, STATUS_OF_ERROR_CODE } from '../lib/app-error';

/** Fastify's own client errors, in plain words instead of the framework's text. */
const FRAMEWORK_ERRORS: Partial<Record<number, { code: TErrorCode; detail: string }>> = {
  404: { code: 'not_found', detail: MESSAGES.notFound },
  413: { code: 'payload_too_large', detail: MESSAGES.payloadTooLarge },
  414: { code: 'uri_too_long', detail: MESSAGES.uriTooLong },
  415: { code: 'unsupported_media_type', detail: MESSAGES.unsupportedMediaType },
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
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

    const sendCode = (code: TErrorCode, detail: string, extra: Record<string, unknown> = {}) => send(STATUS_OF_ERROR_CODE[code], code, detail, extra);

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
      return sendCode('validation', first ? first.reason : 'The request is not valid.', { invalidParams });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return sendCode('internal', 'Something went wrong on our side.');
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return sendCode('rate_limited', MESSAGES.tooManyRequests);
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return sendCode('internal', 'Something went wrong on our side.');
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') return sendCode('file_size', MESSAGES.fileSize, { flags: { fileSize: true } });
    // @fastify/multipart answers a second file part with 413, which told people their upload was too large (review s29).
    if (error.code === 'FST_FILES_LIMIT') return sendCode('validation', MESSAGES.uploadOneFile);
    // Fastify's own client errors (unparsable JSON, an unsupported content type, a body or URL too
    // long…): one code per status, and any other 4xx is a plain validation error.
    request.log.info({ err: error }, 'request refused by the framework');
    const known = FRAMEWORK_ERRORS[status];
    return known ? sendCode(known.code, known.detail) : sendCode('validation', MESSAGES.requestUnreadable);
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .type('application/problem+json')
      .send({ type: 'about:blank', title: 'Not Found', status: 404, detail: MESSAGES.notFound, code: 'not_found', requestId: request.id }),
  );
}
