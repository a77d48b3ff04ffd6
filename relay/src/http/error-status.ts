import type { DomainError, ErrorCode } from '../errors';

/** The reason phrase of each status the relay answers with (the `error` field of an error body). */
export const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** The one place a domain error code becomes an HTTP status (API.md and DESIGN §5 fix these). */
const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_input: 422,
  unknown_agent: 400,
  unknown_secret: 400,
  unauthenticated: 401,
  forbidden: 403,
  conflict: 409,
  quota_exceeded: 402,
  not_found: 404,
  session_gone: 404,
  session_busy: 409,
  rate_limited: 429,
  navigation_failed: 400,
  navigation_refused: 400,
  page_unresponsive: 400,
  restricted_page: 400,
  api_disabled: 400,
  stale_element: 400,
  tab_closed: 404,
  at_capacity: 503,
  elsewhere: 503,
  browser_gone: 500,
  browser_unavailable: 503,
  extension_unavailable: 503,
  model_unavailable: 500,
  store_unavailable: 503,
  screenshot_not_stored: 503,
  internal: 500,
};

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
}

/** The status and headers that answer a domain error: `Retry-After` when it says when to retry. */
export function httpAnswerOf(error: DomainError): HttpAnswer {
  const headers: Record<string, string> = {};
  if (error.code === 'unauthenticated') headers['WWW-Authenticate'] = 'Bearer';
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  return { status: STATUS[error.code], headers };
}
