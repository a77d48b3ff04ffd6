export { answerQuestion } from './answer';
export { parseInstruction } from './parse';
export { BuiltinPlanner } from './planner';
export type { SubStep } from './substeps';
