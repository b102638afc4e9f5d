/** The crawl's stage plan (`stage_plan`, a JSON list of steps): reading and moving one step. */
import { json } from '../../store/database.js';
import type { StagePlanStep, Step } from './crawl-row.js';

export function setStep(plan: string, stage: Step, state: StagePlanStep['state'], skipReason: string | null = null): string {
  const steps = json<StagePlanStep[]>(plan, []);
  return JSON.stringify(steps.map((s) => (s.stage === stage ? { ...s, state, skip_reason: skipReason } : s)));
}

/**
 * The step of `stage` running, when it is still pending: written with every move of the crawl's
 * `stage`, so the step `stage` names reads `running` (a resumed run leaves a settled step as it is).
 */
export function startStep(plan: string, stage: Step): string {
  return stepState(plan, stage) === 'pending' ? setStep(plan, stage, 'running') : plan;
}

function stepState(plan: string, stage: Step): StagePlanStep['state'] | undefined {
  return json<StagePlanStep[]>(plan, []).find((s) => s.stage === stage)?.state;
}

/** Done or skipped: a resumed run does not do it again. */
export const settledStep = (plan: string, stage: Step) => ['done', 'skipped'].includes(stepState(plan, stage) ?? '');
