import type { z } from 'zod';
import { BrowseRequest, BrowseResponse, browseRequest } from './browse';
import { consoleEndpoints } from './console-endpoints';
import type { ApiLimits } from './limits';
import { RetrieveRequest, RetrieveResponse } from './retrieve';
import {
  CloseSessionResponse,
  CreateSessionRequest,
  CreateSessionResponse,
  ListSessionsResponse,
  ScreenshotResponse,
  SessionIdParams,
  StepRequest,
  StepResponse,
  StreamChunk,
} from './sessions';

/**
 * Who may call an endpoint: `api_key` (the agent API: an API key), `console` (the admin API: an API key,
 * or the console's cookie with its CSRF token on changes), `admin` (the same, for an admin account
 * only), `none` (signing in).
 */
export type EndpointAuth = 'api_key' | 'console' | 'admin' | 'none';

/** One HTTP endpoint of the public API: the relay mounts it, the OpenAPI document describes it. */
export interface Endpoint {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path (`:param`); the OpenAPI document rewrites it to `{param}`. */
  path: string;
  summary: string;
  description: string;
  /** Default `api_key`. */
  auth?: EndpointAuth;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodObject;
  response: z.ZodType;
  /** Set when the endpoint can answer with a Server-Sent Events stream of these chunks. */
  stream?: z.ZodType;
  /** The endpoint answers only with the stream (`response` then names the chunk too). */
  streamOnly?: boolean;
  /** Non-422 error statuses the endpoint can return (401 and 429 apply to all). */
  errors: readonly number[];
}

export const endpoints = {
  browse: {
    operationId: 'browse',
    method: 'post',
    path: '/v1/web/browse',
    summary: 'Browse',
    description:
      'Runs a multi-step command: creates or continues a session and steps automatically while the status is CONTINUE, up to max_steps.',
    body: BrowseRequest,
    response: BrowseResponse,
    errors: [400, 402, 404, 409, 500, 503],
  },
  createSession: {
    operationId: 'createSession',
    method: 'post',
    path: '/v1/web/session',
    summary: 'Create session',
    description: 'Opens a new session on url (a browser context in the service, or a tab in your browser with local).',
    body: CreateSessionRequest,
    response: CreateSessionResponse,
    errors: [400, 500, 503],
  },
  stepSession: {
    operationId: 'stepSession',
    method: 'post',
    path: '/v1/web/session/:session_id',
    summary: 'Step session',
    description:
      'Runs one step of the agent. stream=false answers with one JSON object; stream=true answers with Server-Sent Events: `data: <chunk json>` lines, event chunks, one final_event, then `data: [DONE]`.',
    params: SessionIdParams,
    body: StepRequest,
    response: StepResponse,
    stream: StreamChunk,
    errors: [400, 402, 404, 409, 500],
  },
  closeSession: {
    operationId: 'closeSession',
    method: 'delete',
    path: '/v1/web/session/:session_id',
    summary: 'Close session',
    description:
      'Closes the session and frees its browser context or tab at once. An operation running on it stops (its model request is aborted) and answers 404.',
    params: SessionIdParams,
    response: CloseSessionResponse,
    errors: [404, 409],
  },
  screenshot: {
    operationId: 'screenshot',
    method: 'get',
    path: '/v1/web/screenshot/:session_id',
    summary: 'Screenshot',
    description: "Takes a fresh screenshot of the session's current page and returns its image URL.",
    params: SessionIdParams,
    response: ScreenshotResponse,
    errors: [404, 409, 500],
  },
  listSessions: {
    operationId: 'listSessions',
    method: 'get',
    path: '/v1/web/sessions',
    summary: 'List sessions',
    description: "Lists the ids of the caller's account's active sessions.",
    response: ListSessionsResponse,
    errors: [],
  },
  retrieve: {
    operationId: 'retrieve',
    method: 'post',
    path: '/v1/web/retrieve',
    summary: 'Retrieve',
    description:
      'Extracts structured data from a page, standalone (a new session is created) or inside a session (on its current page, or on url).',
    body: RetrieveRequest,
    response: RetrieveResponse,
    errors: [400, 402, 404, 409, 500, 503],
  },
  ...consoleEndpoints,
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** The public API with the limits of one relay's configuration (see `ApiLimits`). */
export function apiEndpoints(limits: ApiLimits): Endpoints {
  return { ...endpoints, browse: { ...endpoints.browse, body: browseRequest(limits) } };
}
