/**
 * @rosetta/mixture — the Mixture-of-Models router behind `rosetta/auto` as the gateway runs it:
 * signals, the fitted quality and cost models, one calibrated cost/quality knob, single and
 * cascade routing, and the artefact they read. Pure TypeScript; no model calls.
 *
 * Fitting, evaluation and the CLIs that produce an artefact are @rosetta/mixture-lab, which builds
 * on this library; nothing here imports it, so the running gateway loads none of that code.
 */
export * from './types';
export { extractSignals, signalValue, type SignalInput, type SignalOptions } from './signals';
export { promptTextOf, requestFacts, type RequestFacts } from './request-text';
export { countPromptTokens, EXACT_TOKEN_CHAR_LIMIT } from './tokens';
export {
  CATEGORIES,
  classifyCategory,
  fitCategoryClassifier,
  type CategoryResult,
  type ClassifierParams,
  type LabelledText,
} from './category-classifier';
export { QualityModel, type PackedVector, type QualityParams, type QualityPrediction } from './quality-model';
export { EXPECTED_OUTPUT_TOKENS, catalogCost, fittedCost, type CostParams } from './cost-model';
export {
  PROFILES,
  expectedQuality,
  figureFor,
  hasProfile,
  profiledModels,
  type CatalogRouting,
  type DeclaredPrior,
  type Figure,
  type ModelProfile,
  type ProfileTable,
  type QualityBasis,
} from './model-profiles';
export { estimateDifficulty, type DifficultyEstimate, type DifficultyInput } from './difficulty';
export { slackForKnob } from './capable-choice';
export { answerKindOf, answerLabel, extractAnswer, extractChoice, extractCode, extractFinal, type AnswerKind } from './answer-extraction';
export { defaultLambdaGrid, gridPointFor, knobAtCost, knobPositions, lambdaForKnob } from './calibration';
export { compareCandidates, decide, defaultKnobFor, qualityBasisOf, type DecideInput } from './router';
export { decideCascadeStep, type CascadeStepInput } from './cascade';
export type { CascadePlan, CascadePolicy } from './cascade-plan';
export {
  ARTEFACT_FORMAT,
  ARTEFACT_VERSION,
  defaultArtefactPath,
  isArtefact,
  loadArtefact,
  loadRouterArtefact,
  saveArtefact,
  type KnobCurve,
  type RouterArtefact,
} from './artefact';

// The pieces fitting shares with the live path, for @rosetta/mixture-lab: one implementation of
// the text features, the artefact's encodings and the cascade state, so that what the fitter
// measures is what the router computes.
export {
  DEFAULT_HASH_BITS,
  documentFrequencies,
  hashedCounts,
  tfidfVector,
  topK,
  type IdfTable,
  type SparseVector,
} from './text-features';
export { packBits, packU32, packUnit8 } from './codec';
export { addToCell, cascadeState, estimateState, type CascadeState, type Cell, type DepthTable, type StateEstimate } from './cascade-core';
