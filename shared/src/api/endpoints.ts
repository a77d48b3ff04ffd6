import type { z } from 'zod';
import { BrowseRequest, BrowseResponse, browseRequest } from './browse';
import {
  ApiKeysResponse,
  ConsoleIdParams,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreateSkillRequest,
  DevicesResponse,
  Removed,
  SkillInfo,
  SkillPreviewRequest,
  SkillPreviewResponse,
  SkillsResponse,
} from './console';
import { ConsoleSessionsResponse, SessionStepsResponse, TimelineChunk } from './history';
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

/** One HTTP endpoint of the public API: the relay mounts it, the OpenAPI document describes it. */
export interface Endpoint {
  operationId: string;
  method: 'get' | 'post' | 'delete';
  /** Express-style path (`:param`); the OpenAPI document rewrites it to `{param}`. */
  path: string;
  summary: string;
  description: string;
  params?: z.ZodObject;
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
  createApiKey: {
    operationId: 'createApiKey',
    method: 'post',
    path: '/v1/console/api-keys',
    summary: 'Create an API key',
    description:
      "Creates an API key for the caller's account. The answer holds the key itself, once; only its hash is kept.",
    body: CreateApiKeyRequest,
    response: CreatedApiKey,
    errors: [],
  },
  listApiKeys: {
    operationId: 'listApiKeys',
    method: 'get',
    path: '/v1/console/api-keys',
    summary: 'List API keys',
    description: "The account's live keys: name, prefix, created, last used. Never a key itself.",
    response: ApiKeysResponse,
    errors: [],
  },
  revokeApiKey: {
    operationId: 'revokeApiKey',
    method: 'delete',
    path: '/v1/console/api-keys/:id',
    summary: 'Revoke an API key',
    description:
      "Revokes one of the account's keys: the next call with it is a 401. The key of the call itself cannot be revoked this way (use another key).",
    params: ConsoleIdParams,
    response: Removed,
    errors: [400, 404],
  },
  listSkills: {
    operationId: 'listSkills',
    method: 'get',
    path: '/v1/console/skills',
    summary: 'List skills',
    description: "The account's skills (the web profile): plain-words rules the agent reads on matching sites.",
    response: SkillsResponse,
    errors: [],
  },
  createSkill: {
    operationId: 'createSkill',
    method: 'post',
    path: '/v1/console/skills',
    summary: 'Add a skill',
    description: 'Adds a rule for the sites its host pattern matches; the agent reads it from its next step there.',
    body: CreateSkillRequest,
    response: SkillInfo,
    errors: [],
  },
  deleteSkill: {
    operationId: 'deleteSkill',
    method: 'delete',
    path: '/v1/console/skills/:id',
    summary: 'Delete a skill',
    description: "Deletes one of the account's skills.",
    params: ConsoleIdParams,
    response: Removed,
    errors: [404],
  },
  previewSkills: {
    operationId: 'previewSkills',
    method: 'post',
    path: '/v1/console/skills/preview',
    summary: 'Which skills apply to a URL',
    description: 'The skills the agent would read on this page, by the same matching the agent uses.',
    body: SkillPreviewRequest,
    response: SkillPreviewResponse,
    errors: [],
  },
  listDevices: {
    operationId: 'listDevices',
    method: 'get',
    path: '/v1/console/devices',
    summary: 'List extension devices',
    description: 'The browsers signed in with the extension: name, created, last seen, connected now, API Enabled.',
    response: DevicesResponse,
    errors: [],
  },
  revokeDevice: {
    operationId: 'revokeDevice',
    method: 'delete',
    path: '/v1/console/devices/:id',
    summary: 'Revoke an extension device',
    description: 'Revokes the device token: its socket closes at once and its local sessions end.',
    params: ConsoleIdParams,
    response: Removed,
    errors: [404],
  },
  consoleSessions: {
    operationId: 'consoleSessions',
    method: 'get',
    path: '/v1/console/sessions',
    summary: 'Live and recent sessions',
    description:
      "The caller's live sessions (local or remote, page, age, idle time, whether an operation runs) and, from the step history, the ones that ended in the last TANDEM_HISTORY_DAYS days.",
    response: ConsoleSessionsResponse,
    errors: [],
  },
  sessionSteps: {
    operationId: 'sessionSteps',
    method: 'get',
    path: '/v1/console/sessions/:session_id/steps',
    summary: 'Session step timeline',
    description:
      "The steps an agent ran in one of the caller's sessions — command, goal, each action and its result, URL, tokens and time — live or ended, kept TANDEM_HISTORY_DAYS days (also across relay restarts).",
    params: SessionIdParams,
    response: SessionStepsResponse,
    errors: [404],
  },
  sessionStepsLive: {
    operationId: 'sessionStepsLive',
    method: 'get',
    path: '/v1/console/sessions/:session_id/steps/live',
    summary: 'Session step timeline, live',
    description:
      'Server-Sent Events: the steps recorded so far, then each step as it finishes, then an end chunk when the session ends (at once for a session that is no longer live).',
    params: SessionIdParams,
    response: TimelineChunk,
    stream: TimelineChunk,
    streamOnly: true,
    errors: [404],
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
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** The public API with the limits of one relay's configuration (see `ApiLimits`). */
export function apiEndpoints(limits: ApiLimits): Endpoints {
  return { ...endpoints, browse: { ...endpoints.browse, body: browseRequest(limits) } };
}
