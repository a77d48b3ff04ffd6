// What an OpenAI-compatible endpoint's failures mean, in words that say what to check.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';

/**
 * A model call that failed (after the client's own retries). `retriable`: the same request may work
 * later (timeouts, 5xx, rate limits); otherwise the settings or the request must change.
 */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly retriable: boolean,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/**
 * An answer that says the endpoint or model does not take `tools` / `response_format`: a 400 or 422
 * (OpenAI, Ollama, vLLM), a 501, or any error whose message names the feature (llama.cpp answers 500).
 */
export function isUnsupportedOutput(error: unknown): boolean {
  if (!(error instanceof APIError) || error.status === undefined) return false;
  if (error.status === 400 || error.status === 422 || error.status === 501) return true;
  return error.status >= 400 && /\b(tools?|tool_choice|functions?|response_format|json_schema)\b/i.test(error.message);
}

export interface CallContext {
  baseURL: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
}

/** A failed call as a ModelError whose message says what to check; never includes the key. */
export function toModelError(error: unknown, ctx: CallContext): ModelError {
  const at = `the model endpoint ${ctx.baseURL}`;
  const retries = ctx.maxRetries === 1 ? '1 retry' : `${ctx.maxRetries} retries`;
  let result: ModelError;
  if (error instanceof ModelError) return error;
  if (error instanceof APIUserAbortError) {
    result = new ModelError('the model call was cancelled', false);
  } else if (error instanceof APIConnectionTimeoutError) {
    result = new ModelError(
      `${at} did not answer within ${ctx.timeoutMs} ms (model "${ctx.model}", ${retries}); check that the server is up and the model is loaded, or raise the timeout`,
      true,
    );
  } else if (error instanceof APIConnectionError) {
    result = new ModelError(
      `could not reach ${at}: ${connectionFailure(error)}, after ${retries}; check the base URL (OPENAI_BASE_URL) and that the server is running`,
      true,
    );
  } else if (error instanceof APIError && error.status !== undefined) {
    result = fromStatus(error.status, serverMessage(error), at, ctx, retries);
  } else if (error instanceof SyntaxError) {
    result = new ModelError(
      `${at} answered with a body that is not JSON; check the base URL (OPENAI_BASE_URL, usually ending in /v1) points at an OpenAI-compatible API`,
      false,
    );
  } else {
    result = new ModelError(`the model call failed: ${error instanceof Error ? error.message : String(error)}`, false);
  }
  result.cause = error;
  return result;
}

function fromStatus(status: number, message: string, at: string, ctx: CallContext, retries: string): ModelError {
  switch (true) {
    case status === 401:
      return new ModelError(`${at} rejected the API key (401: ${message}); check OPENAI_API_KEY`, false);
    case status === 403:
      return new ModelError(`${at} refused access (403: ${message}); check OPENAI_API_KEY and its permissions`, false);
    case status === 404:
      return new ModelError(
        `${at} has no model "${ctx.model}" or no chat completions route (404: ${message}); check the model name (TANDEM_MODEL_FAST / TANDEM_MODEL_STANDARD) and that the base URL ends in /v1`,
        false,
      );
    case status === 429:
      return new ModelError(`${at} is rate limiting (429) after ${retries}: ${message}; try again later`, true);
    case status === 408 || status === 409 || status >= 500:
      return new ModelError(`${at} failed with ${status} after ${retries}: ${message}`, true);
    default:
      return new ModelError(
        `${at} refused the request (${status}: ${message}); check the model name "${ctx.model}" and that the endpoint is OpenAI-compatible`,
        false,
      );
  }
}

/**
 * A 200 answer that is no chat completion: text or HTML (a web page, a proxy's page), or JSON without
 * choices. The openai client hands back a non-JSON body as a string.
 */
export function notACompletion(body: unknown, ctx: CallContext): ModelError | undefined {
  const at = `the model endpoint ${ctx.baseURL}`;
  const check = 'check that the base URL (OPENAI_BASE_URL, usually ending in /v1) points at an OpenAI-compatible API';
  if (typeof body === 'string') {
    return new ModelError(`${at} answered with text, not a chat completion ("${quote(body)}"); ${check}`, false);
  }
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (Array.isArray(choices) && choices.length > 0) return undefined;
  return new ModelError(
    `${at} answered without any choice for model "${ctx.model}" (${quote(JSON.stringify(body) ?? String(body))}); ${check}, and the model name`,
    false,
  );
}

/** The server's own words, without the status prefix the client adds; an HTML error page shortened to its text. */
function serverMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return quote(body.message, 300);
  return quote(error.message.replace(/^\d{3}\s*/, '')) || 'no message';
}

/** Socket-level reasons, in words; the code is kept for searching. */
const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the server closed the connection',
  EPIPE: 'the server closed the connection',
};

/** Why a request never got an answer: fetch says only "fetch failed" and keeps the socket error as its cause. */
function connectionFailure(error: Error): string {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code) return `${CONNECTION_CODES[code] ?? cause.message} (${code})`;
    cause = cause.cause;
  }
  return (error.cause instanceof Error ? error.cause.message : error.message) || 'no answer';
}

/** A short, single-line quote of what a server sent: tags dropped, whitespace collapsed, cut at `max`. */
function quote(text: string, max = 160): string {
  const plain = text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}
