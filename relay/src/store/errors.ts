import { DomainError } from '../errors';

/** The database cannot be reached (Postgres stopped, restarting or unreachable): worth a retry. */
export class StoreUnavailable extends DomainError {
  constructor(readonly detail: string) {
    super(
      'store_unavailable',
      `The relay's database is unreachable (${detail}). Retry in a moment; if it lasts, check that Postgres is running and TANDEM_DATABASE_URL points at it.`,
      5,
    );
  }
}
