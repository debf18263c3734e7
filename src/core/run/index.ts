export type { BuiltinContext, BuiltinLimits, BuiltinOutcome, BuiltinSkill, PolicyDecision, PolicyGate } from './builtin.js';
