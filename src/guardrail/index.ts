// Guardrails (issue 40): plan, apply and undo the reversible actions that stop what burns money.
export { applyGuardrails, type ApplyOptions, type ApplyResult, type GuardrailAccount } from './apply.ts';
export { planGuardrails, type Proposal, type RulePlan } from './plan.ts';
export { undoGuardrail, type UndoOptions } from './undo.ts';
export { applyText, approveCommand, planText } from './text.ts';
