/**
 * @rosetta/mixture — the Mixture-of-Models router behind `rosetta/auto`: signals, a fitted
 * quality model, a cost model, one calibrated cost/quality knob, single and cascade routing, and
 * the offline evaluation. Pure TypeScript; no model calls.
 */
export * from './types';
export { CsvParser, parseCsv, parseCsvObjects } from './csv';
export { decodePromptLiteral, parsePythonStringList } from './python-literal';
export { commonModels, loadRouterBench, modelsOfHeader, parseRouterBench } from './load-routerbench';
export { extractSignals, signalValue, type SignalInput, type SignalOptions } from './signals';
export { promptTextOf, requestFacts, type RequestFacts } from './request-text';
export { countPromptTokens, EXACT_TOKEN_CHAR_LIMIT } from './tokens';
export {
  CATEGORIES,
  classifyCategory,
  fitCategoryClassifier,
  leaveOneOutAccuracy,
  loadMtBench,
  type CategoryResult,
  type ClassifierParams,
  type LabelledText,
} from './category-classifier';
export { DEFAULT_QUALITY_OPTIONS, QualityModel, fitQualityModel, type QualityOptions, type QualityParams, type QualityPrediction } from './quality-model';
export { EXPECTED_OUTPUT_TOKENS, catalogCost, fitCostModel, fittedCost, type CostParams } from './cost-model';
export { PROFILES, UNKNOWN_MODEL_QUALITY, profileQuality, profiledModels, type ModelProfile, type ProfileTable } from './model-profiles';
export { answerKindOf, answerLabel, extractAnswer, extractChoice, extractCode, extractFinal, type AnswerKind } from './answer-extraction';
export { defaultLambdaGrid, gridPointFor, knobPositions, lambdaForKnob } from './calibration';
export { compareCandidates, decide, type DecideInput } from './router';
export { decideCascadeStep, type CascadeStepInput } from './cascade';
export type { CascadePlan, CascadePolicy } from './cascade-fit';
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
export { DEFAULT_KNOB, DEFAULT_MODE, fitRouter, type FitOptions } from './fit-router';
export { evaluate, routeRow, summarise, type EvalReport } from './evaluate';
export { routingCeiling, type CeilingOptions, type CeilingPoint, type CeilingReport } from './ceiling';
export { DEFAULT_CV_SEED, crossValidate, type CrossValidationOptions } from './cross-validation';
export { mulberry32, stratifiedFolds } from './rng';
