// The openai client for any OpenAI-compatible endpoint, and what its failures mean for a planner.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { PlannerError } from '../planner';

export interface ClientOptions {
  baseURL?: string | undefined;
  apiKey?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The client retries 408/409/429/5xx and timeouts itself with exponential backoff, honouring
 * `retry-after`. Local servers (Ollama, llama.cpp, LM Studio) want no key, but the client insists on
 * one, so a placeholder stands in when neither the option nor OPENAI_API_KEY gives one.
 */
export function createClient(options: ClientOptions): OpenAI {
  return new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey || process.env.OPENAI_API_KEY || 'no-key',
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    logLevel: 'off',
  });
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

/** A failed call as a PlannerError whose message says what to check; never includes the key. */
export function toPlannerError(error: unknown, ctx: CallContext): PlannerError {
  const at = `the model endpoint ${ctx.baseURL}`;
  const retries = ctx.maxRetries === 1 ? '1 retry' : `${ctx.maxRetries} retries`;
  let result: PlannerError;
  if (error instanceof PlannerError) return error;
  if (error instanceof APIUserAbortError) {
    result = new PlannerError('the model call was cancelled', false);
  } else if (error instanceof APIConnectionTimeoutError) {
    result = new PlannerError(
      `${at} did not answer within ${ctx.timeoutMs} ms (model "${ctx.model}", ${retries}); check that the server is up and the model is loaded, or raise the timeout`,
      true,
    );
  } else if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    result = new PlannerError(
      `could not reach ${at}${cause}; check the base URL (OPENAI_BASE_URL) and that the server is running`,
      true,
    );
  } else if (error instanceof APIError && error.status !== undefined) {
    result = fromStatus(error.status, serverMessage(error), at, ctx, retries);
  } else if (error instanceof SyntaxError) {
    result = new PlannerError(
      `${at} answered with a body that is not JSON; check the base URL (OPENAI_BASE_URL, usually ending in /v1) points at an OpenAI-compatible API`,
      false,
    );
  } else {
    result = new PlannerError(
      `the model call failed: ${error instanceof Error ? error.message : String(error)}`,
      false,
    );
  }
  result.cause = error;
  return result;
}

function fromStatus(status: number, message: string, at: string, ctx: CallContext, retries: string): PlannerError {
  switch (true) {
    case status === 401:
      return new PlannerError(`${at} rejected the API key (401: ${message}); check OPENAI_API_KEY`, false);
    case status === 403:
      return new PlannerError(
        `${at} refused access (403: ${message}); check OPENAI_API_KEY and its permissions`,
        false,
      );
    case status === 404:
      return new PlannerError(
        `${at} has no model "${ctx.model}" or no chat completions route (404: ${message}); check the model name (TANDEM_MODEL_FAST / TANDEM_MODEL_STANDARD) and that the base URL ends in /v1`,
        false,
      );
    case status === 429:
      return new PlannerError(`${at} is rate limiting (429) after ${retries}: ${message}; try again later`, true);
    case status === 408 || status === 409 || status >= 500:
      return new PlannerError(`${at} failed with ${status} after ${retries}: ${message}`, true);
    default:
      return new PlannerError(
        `${at} refused the request (${status}: ${message}); check the model name "${ctx.model}" and that the endpoint is OpenAI-compatible`,
        false,
      );
  }
}

/** The server's own words, without the status prefix the client adds. */
function serverMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === 'string') return body.message;
  return error.message.replace(/^\d{3}\s*/, '') || 'no message';
}
