import { HttpError } from '../errors';

/** The database cannot be reached (Postgres stopped, restarting or unreachable): 503, worth a retry. */
export class StoreUnavailable extends HttpError {
  constructor(readonly detail: string) {
    super(
      503,
      `The relay's database is unreachable (${detail}). Retry in a moment; if it lasts, check that Postgres is running and TANDEM_DATABASE_URL points at it.`,
      { 'Retry-After': '5' },
    );
  }
}
