import type { ErrorBody, ValidationErrorBody } from '@tandem/shared';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DomainError, ValidationFailed } from '../errors';
import { clip } from '../quote';
import { OperationCancelled } from '../sessions/cancellation';
import { locals } from './context';
import { httpAnswerOf, STATUS_NAMES } from './error-status';
import { findJsonError } from './json-errors';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  body?: string;
}

export function sendError(
  res: Parameters<RequestHandler>[1],
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  const body: ErrorBody = { statusCode: status, error: STATUS_NAMES[status] ?? 'Error', message };
  res.status(status).set(headers).json(body);
}

/** The one place errors become responses: 422 in the FastAPI shape, everything else {statusCode, error, message}. */
export const errorHandler: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
  const ctx = locals(res);
  if (res.headersSent) {
    ctx.log?.warn({ err: error }, 'error after the response started');
    res.end();
    return;
  }
  if (error instanceof OperationCancelled && error.reason === 'client_gone') {
    // Nobody is listening for an answer.
    ctx.log?.info({ sessionId: ctx.sessionId }, 'operation cancelled: the client disconnected');
    res.end();
    return;
  }
  if (error instanceof ValidationFailed) {
    const body: ValidationErrorBody = { detail: error.issues };
    res.status(422).json(body);
    return;
  }
  if (error instanceof DomainError) {
    const { status, headers } = httpAnswerOf(error);
    if (status >= 500) ctx.log?.error({ err: error }, error.message);
    // A server-side failure is found in the logs by its request id; 503 is capacity, not a failure.
    const message =
      status >= 500 && status !== 503 ? `${error.message} (request id ${ctx.requestId ?? 'unknown'})` : error.message;
    sendError(res, status, message, headers);
    return;
  }
  const parserError = error as BodyParserError;
  if (parserError.type === 'entity.parse.failed') {
    // FastAPI's answer: where the text goes wrong and Python's words for it. V8's own messages carry no
    // position for some errors and quote the body in others.
    const found = findJsonError(parserError.body ?? '') ?? { position: 0, message: 'Expecting value' };
    const body: ValidationErrorBody = {
      detail: [
        {
          loc: ['body', found.position],
          msg: 'JSON decode error',
          type: 'json_invalid',
          input: {},
          ctx: { error: found.message },
        },
      ],
    };
    res.status(422).json(body);
    return;
  }
  if (parserError.type === 'entity.too.large') {
    sendError(res, 413, 'The request body is larger than 1 MB. Send a smaller body.');
    return;
  }
  if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    sendError(res, parserError.status, parserError.message);
    return;
  }
  ctx.log?.error({ err: error }, 'unhandled error');
  sendError(
    res,
    500,
    `Internal error (request id ${ctx.requestId ?? 'unknown'}). The relay logged the details under that id; retry, and report it if it persists.`,
  );
};

export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, 404, `No route ${req.method} ${clip(req.path)}. The API is described at /docs and /v1/openapi.json.`);
};
