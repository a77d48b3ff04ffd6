import { STATUS_CODES } from 'node:http';

/** An HTTP status as people read it: "HTTP 404 Not Found". */
export function httpStatusText(status: number): string {
  const name = STATUS_CODES[status];
  return name ? `HTTP ${status} ${name}` : `HTTP ${status}`;
}

/**
 * What to add to a message about a page that loaded: nothing for a success, else a sentence with the
 * status, because an error page still "opens" and the agent or client would take it for the page asked for.
 */
export function statusNote(status: number | undefined): string {
  return status !== undefined && status >= 400 ? ` The server answered ${httpStatusText(status)}.` : '';
}
