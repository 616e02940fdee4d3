/**
 * The live cascade step, used unchanged by the evaluation: given the plan and the responses
 * obtained so far, accept an answer or name the next model to call.
 *
 * Fitted plans (a cluster of the artefact, models of the artefact): accept when
 * P(accepted answer correct | state) ≥ P(escalation model correct | state) − λ·cost(escalation),
 * both read from the plan's fitted cell tables; otherwise call the next cheap model of the plan,
 * and after the last one the escalation model, whose answer is final.
 * Plans without tables (catalog models, unknown clusters): accept as soon as two answers agree.
 */
import type { RouterArtefact } from './artefact';
import { type AnswerKind, answerKindOf, extractAnswer } from './answer-extraction';
import { gridPointFor } from './calibration';
import { cascadeState, estimateState } from './cascade-core';
import type { CascadePlan } from './cascade-plan';
import { fittedCost } from './cost-model';
import { runtimeOf, viewOf } from './runtime';
import type { CascadeResponse, CascadeStep } from './types';

export interface CascadeStepInput {
  text: string;
  /** The decision's plan: cheap models in order, the escalation model last. */
  plan: string[];
  /** Responses obtained so far, in activation order. */
  responses: CascadeResponse[];
  knob?: number;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

function fittedStep(plan: CascadePlan, input: CascadeStepInput, kind: AnswerKind, artefact: RouterArtefact): CascadeStep {
  const depth = input.responses.length;
  const prefix = plan.models.slice(0, -1);
  const esc = plan.models[plan.models.length - 1] as string;
  const answers = prefix.slice(0, depth).map((m) => {
    const r = input.responses.find((x) => x.model === m);
    return r ? extractAnswer(r.text, kind) : null;
  });
  const state = cascadeState(answers, kind, plan.priors.slice(0, prefix.length));
  const table = plan.tables[depth - 1];
  const acceptModel = prefix[state.accept] as string;
  if (!table) return { action: 'call', model: esc, reasons: ['no fitted statistics for this depth: escalate'] };
  const est = estimateState(table, state, [plan.priors[state.accept] as number, plan.priors[prefix.length] as number], artefact.cascade.policy.alpha);
  const knob = input.knob ?? artefact.defaults.knobByMode.cascade;
  // The λ of the grid point the plan was chosen at (the same draw as in decide).
  const curve = artefact.cascade.curve;
  const lambda = curve.lambdas[gridPointFor(curve.lambdas, curve.knobs, knob, input.text)] as number;
  const rt = runtimeOf(artefact);
  const cluster = plan.cluster;
  const tokens = viewOf(rt, input.text).tokens;
  const escCost = fittedCost(artefact.cost, rt.modelIndex.get(esc) ?? 0, cluster, tokens);
  const bar = est.escalate - lambda * escCost;
  const facts = `state ${state.fine} (${state.agree}/${depth} agree, ${est.support} training rows): P(accept correct)=${r3(est.accept)}, P(${esc} correct)=${r3(est.escalate)}, λ·cost=${r3(lambda * escCost)}`;
  if (est.accept >= bar) return { action: 'accept', model: acceptModel, answer: state.answer, confidence: r3(est.accept), reasons: [facts, 'accept: confidence clears the escalation bar'] };
  const next = depth < prefix.length ? (prefix[depth] as string) : esc;
  return { action: 'call', model: next, reasons: [facts, next === esc ? `escalate to ${esc}` : `ask ${next} for a second opinion`] };
}

function genericStep(input: CascadeStepInput, kind: AnswerKind): CascadeStep {
  const depth = input.responses.length;
  const answers = input.responses.map((r) => extractAnswer(r.text, kind));
  const counts = new Map<string, number>();
  for (const a of answers) if (a !== null) counts.set(a, (counts.get(a) ?? 0) + 1);
  for (const [answer, n] of counts) {
    if (n >= 2) {
      const model = input.responses[answers.indexOf(answer)]?.model as string;
      return { action: 'accept', model, answer, confidence: 0.8, reasons: [`${n} of ${depth} answers agree on ${answer.slice(0, 40)}`] };
    }
  }
  const next = input.plan[depth] as string;
  return { action: 'call', model: next, reasons: [depth === 0 ? 'start with the cheapest model' : 'answers disagree or are missing: ask the next model'] };
}

/** Accept an answer or name the next model to call. */
export function decideCascadeStep(input: CascadeStepInput, artefact: RouterArtefact): CascadeStep {
  const first = input.plan[0];
  if (first === undefined) throw new Error('decideCascadeStep: empty plan');
  const depth = input.responses.length;
  if (depth === 0) return { action: 'call', model: first, reasons: ['first model of the plan'] };
  const last = input.responses[depth - 1] as CascadeResponse;
  const kind = answerKindOf(input.text);
  if (depth >= input.plan.length || last.model === input.plan[input.plan.length - 1]) {
    return { action: 'accept', model: last.model, answer: extractAnswer(last.text, kind), confidence: 1, reasons: ['final model of the plan: its answer stands'] };
  }
  const rt = runtimeOf(artefact);
  const cluster = viewOf(rt, input.text).prediction.cluster;
  const plan = rt.plans.get(`${cluster}:${input.plan.join('>')}`);
  return plan && plan.cascade ? fittedStep(plan, input, kind, artefact) : genericStep(input, kind);
}
