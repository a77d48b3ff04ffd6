import { z } from 'zod';
import { apiEndpoints, type Endpoint, type EndpointAuth } from './endpoints';
import { ErrorBody, ValidationErrorBody } from './errors';
import { type ApiLimits, DEFAULT_API_LIMITS } from './limits';

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

type JsonSchema = Record<string, unknown>;

/**
 * Converts one schema to JSON Schema 2020-12. Schemas named with `meta({id})` land in `components`
 * and are referenced from there, so each appears once in the document.
 */
function toSchema(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  const {
    $schema: _dialect,
    $defs,
    ...root
  } = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  Object.assign(components, $defs);
  return root;
}

/** Who may call an endpoint, as OpenAPI security requirements (any one of them). */
const SECURITY: Record<EndpointAuth, JsonSchema[]> = {
  api_key: [{ ApiKeyHeader: [] }, { BearerAuth: [] }],
  console: [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { ConsoleCookie: [] }],
  admin: [{ ApiKeyHeader: [] }, { BearerAuth: [] }, { ConsoleCookie: [] }],
  none: [],
};

function tagOf(endpoint: Endpoint): string {
  if (endpoint.path.startsWith('/v1/web/retrieve')) return 'retrieve';
  if (endpoint.path.startsWith('/v1/console')) return endpoint.auth === 'admin' ? 'accounts (admin)' : 'console';
  return 'agent';
}

function parametersOf(endpoint: Endpoint, components: Record<string, JsonSchema>): JsonSchema[] {
  const path = Object.entries(endpoint.params?.shape ?? {}).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: toSchema(schema as z.ZodType, 'input', components),
  }));
  const query = Object.entries(endpoint.query?.shape ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !(schema as z.ZodType).safeParse(undefined).success,
    schema: toSchema(schema as z.ZodType, 'input', components),
  }));
  return [...path, ...query];
}

function operation(endpoint: Endpoint, components: Record<string, JsonSchema>): JsonSchema {
  const parameters = parametersOf(endpoint, components);
  const auth = endpoint.auth ?? 'api_key';
  const eventStream = endpoint.stream
    ? { 'text/event-stream': { schema: toSchema(endpoint.stream, 'output', components) } }
    : {};
  const framing = 'each chunk is one `data: <json>` line and a blank line, and the stream ends with `data: [DONE]`.';
  const responses: Record<string, unknown> = {
    200: endpoint.streamOnly
      ? { description: `Server-Sent Events (\`text/event-stream\`): ${framing}`, content: eventStream }
      : {
          // A media type has no description of its own (OpenAPI 3.1), so the stream's framing is told here.
          description: endpoint.stream
            ? `Successful response: one JSON object, or with \`stream: true\` Server-Sent Events (\`text/event-stream\`): ${framing}`
            : 'Successful response',
          content: {
            'application/json': { schema: toSchema(endpoint.response, 'output', components) },
            ...eventStream,
          },
        },
    ...(auth === 'none' ? {} : { 401: errorResponse(401, components) }),
    429: errorResponse(429, components),
  };
  if (endpoint.params || endpoint.query || endpoint.body) {
    responses[422] = {
      description: 'Validation Error',
      content: { 'application/json': { schema: toSchema(ValidationErrorBody, 'output', components) } },
    };
  }
  for (const status of endpoint.errors) responses[status] = errorResponse(status, components);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [tagOf(endpoint)],
    security: SECURITY[auth],
    ...(parameters.length ? { parameters } : {}),
    ...(endpoint.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: toSchema(endpoint.body, 'input', components) } },
          },
        }
      : {}),
    responses,
  };
}

/** Statuses that say when to come back. */
const RETRY_AFTER = new Set([429, 503]);

function errorResponse(status: number, components: Record<string, JsonSchema>) {
  return {
    description: STATUS_NAMES[status] ?? String(status),
    ...(RETRY_AFTER.has(status)
      ? {
          headers: {
            'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
          },
        }
      : {}),
    content: { 'application/json': { schema: toSchema(ErrorBody, 'output', components) } },
  };
}

/** OpenAPI's license object: an SPDX expression is its own identifier; UNLICENSED grants none and has none. */
function licenseObject(license: string): JsonSchema {
  return license === 'UNLICENSED'
    ? { name: 'UNLICENSED (no licence granted)' }
    : { name: license, identifier: license };
}

/** The OpenAPI 3.1 document of the public API, generated from the zod schemas. */
export function buildOpenApiDocument(options: {
  serverUrl: string;
  version: string;
  /** The package's `license` field: an SPDX identifier, or UNLICENSED (no licence granted). */
  license?: string;
  /** The relay's limits, so the document states what this relay accepts. */
  limits?: ApiLimits;
}): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of Object.values(apiEndpoints(options.limits ?? DEFAULT_API_LIMITS)) as Endpoint[]) {
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][endpoint.method] = operation(endpoint, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tandem API',
      version: options.version,
      license: licenseObject(options.license ?? 'UNLICENSED'),
      description:
        'Self-hosted web agent service. Send a natural-language cmd; the agent drives a browser (headless Chromium in the service, or your own Chrome through the Tandem extension with local: true).',
    },
    servers: [{ url: options.serverUrl }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X_SERVICE_API_KEY' },
        BearerAuth: { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token.' },
        ConsoleCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'tandem_console',
          description:
            'The console sign-in (POST /v1/console/auth/sign-in). Every change made with it carries the X-CSRF-Token header the sign-in answered.',
        },
      },
    },
  };
}
