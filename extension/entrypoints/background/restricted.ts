import { restrictedPageMessage } from '@tandem/shared';
import { CommandFailure } from './errors';

/** Refuses pages Chrome keeps from extensions up front, rather than failing half-way through a command. */
export function assertAllowed(url: string): void {
  const message = restrictedPageMessage(url);
  if (message) throw new CommandFailure('restricted_page', message);
}
