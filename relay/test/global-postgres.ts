/**
 * Vitest global setup: with TANDEM_TEST_DATABASE=postgres, one throwaway Postgres cluster for the whole
 * run, and every relay a test starts (startTestRelay) gets its own database in it.
 */

import { startPostgres } from '@tandem/e2e/fixtures';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TANDEM_TEST_DATABASE !== 'postgres') return undefined;
  const server = await startPostgres();
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}
