/**
 * The application layer: one service per group of use cases, each built once by `startRelay` from the
 * narrow dependencies it names. Routes parse, call one method, and shape the answer.
 */
import type { AccountService } from './accounts';
import type { AgentService } from './agents';
import type { BrowseService } from './browse';
import type { ConsoleService } from './console';
import type { HistoryService } from './history';
import type { RetrieveService } from './retrieve';
import type { SecretService } from './secrets';
import type { SessionService } from './sessions';
import type { StepService } from './step';
import type { UsageService } from './usage';

export type { AgentSession } from '../agent/conversation';
export { AccountService, type Principal } from './accounts';
export { AgentService } from './agents';
export { type BrowseDeps, BrowseService, type CallOptions } from './browse';
export { ConsoleService } from './console';
export { HistoryService } from './history';
export { ParkedSessionStore } from './parked-sessions';
export { QuotaGate } from './quota';
export { RetrieveService, type RetrieveServiceDeps } from './retrieve';
export { NO_SCREENSHOT, type OptionalScreenshot, Screenshots } from './screenshots';
export { SecretService } from './secrets';
export { SessionOpener, SessionService } from './sessions';
export { type StepReporter, type StepResult, StepService } from './step';
export { StepFeed } from './step-feed';
export { UsageService } from './usage';

export interface Application {
  sessions: SessionService;
  browse: BrowseService;
  steps: StepService;
  retrieve: RetrieveService;
  history: HistoryService;
  console: ConsoleService;
  accounts: AccountService;
  agents: AgentService;
  secrets: SecretService;
  usage: UsageService;
}
