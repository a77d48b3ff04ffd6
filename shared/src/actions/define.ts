import { z } from 'zod';

/**
 * Who carries an action out. `runtime`: the page runtime, inside the page (element actions).
 * `driver`: the browser driver, outside the page (a navigation destroys the runtime that would run it).
 * `agent`: nobody touches the browser; the step loop ends or pauses (done, ask_user).
 */
export type ActionExecutor = 'runtime' | 'driver' | 'agent';

/** One entry of the action registry; the planner's tool list and the docs are generated from these. */
export interface ActionDefinition<Name extends string = string, Schema extends z.ZodObject = z.ZodObject> {
  name: Name;
  executor: ActionExecutor;
  schema: Schema;
  description: string;
}

/** The 1-based index of an interactive element, as shown in the latest snapshot (`[12]`). */
export const ElementIndex = z
  .int()
  .min(1)
  .describe('Index of the element in the latest page snapshot, the number in [brackets].');

/** Builds an action definition; the schema's `action` literal is the discriminator of `Action`. */
export function defineAction<const Name extends string, Shape extends z.ZodRawShape>(def: {
  name: Name;
  executor: ActionExecutor;
  description: string;
  shape: Shape;
}) {
  const schema = z
    .object({ action: z.literal(def.name).describe(`Always "${def.name}".`), ...def.shape })
    .describe(def.description);
  return { name: def.name, executor: def.executor, description: def.description, schema };
}
