/**
 * @rosetta/mixture-lab — the offline side of the `rosetta/auto` router: reading RouterBench-shaped
 * CSVs and MT-Bench, fitting an artefact, evaluating it (held-out, k-fold, the in-sample routing
 * ceiling) and the `router:fit`, `router:eval` and `router:bench` CLIs.
 *
 * It builds on @rosetta/mixture (the runtime router, which the gateway loads) and uses its code
 * for everything the live path also does, so an evaluation routes exactly as the gateway would.
 * The gateway never imports this library.
 */
export { decodePromptLiteral, parsePythonStringList } from './python-literal';
export { commonModels, loadRouterBench, modelsOfHeader, parseRouterBench } from './load-routerbench';
export { leaveOneOutAccuracy, loadMtBench } from './classifier-fit';
export { DEFAULT_QUALITY_OPTIONS, fitQualityModel, type QualityOptions } from './quality-fit';
export { fitCostModel } from './cost-fit';
export { DEFAULT_KNOB, DEFAULT_MODE, fitRouter, type FitOptions } from './fit-router';
export { evaluate, routeRow, summarise, type EvalReport } from './evaluate';
export { routingCeiling, type CeilingOptions, type CeilingPoint, type CeilingReport } from './ceiling';
export { DEFAULT_CV_SEED, crossValidate, type CrossValidationOptions } from './cross-validation';
export { mulberry32, stratifiedFolds } from './rng';
export { defaultPhrasingsPath, evaluatePhrasings, loadPhrasings, type PhrasingGroup, type PhrasingReport } from './phrasings';
