import type { Endpoint } from '@tandem/shared';
import type { RequestHandler, Router } from 'express';
import { authorize } from './console-auth';
import { validate } from './validation';

/** Mounts one endpoint on `router`: its method and path, the role it needs, its validation, then `handler`. */
export function route(router: Router, endpoint: Endpoint, handler: RequestHandler): void {
  router[endpoint.method](endpoint.path, authorize(endpoint), validate(endpoint), handler);
}
