/** The longest `cmd` any endpoint takes, in characters (a page of instructions; more is an attack or a mistake). */
export const MAX_CMD_CHARS = 20_000;

/** Browse's `max_steps` when the request gives none (the contract's default). */
export const DEFAULT_MAX_STEPS = 20;

/**
 * Limits that depend on the relay's configuration. The request schemas are built from them, so the
 * relay validates with the limits it runs with and its OpenAPI document states the same numbers.
 */
export interface ApiLimits {
  /** The most steps one browse may ask for (TANDEM_MAX_STEPS). */
  maxSteps: number;
}

export const DEFAULT_API_LIMITS: ApiLimits = { maxSteps: 100 };
