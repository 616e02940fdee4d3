/**
 * Cheap deterministic signals about a prompt (and, on the live path, about the canonical
 * request). Every signal carries a confidence in 0..1. Nothing here calls a model.
 */
import type { CanonicalRequest } from '@rosetta/canonical';
import { type ClassifierParams, classifyCategory, fitCategoryClassifier } from './category-classifier';
import { choiceOptions, codeScore, dominantScript, mathScore } from './detectors';
import { estimateDifficulty } from './difficulty';
import { type RequestFacts, requestFacts } from './request-text';
import { countPromptTokens } from './tokens';
import type { Signal } from './types';

export interface SignalInput {
  text: string;
  request?: CanonicalRequest;
}

export interface SignalOptions {
  /** Fitted classifier parameters (from the artefact); keyword priors only when absent. */
  classifier?: ClassifierParams;
}

let keywordOnly: ClassifierParams | undefined;

/** A classifier fitted on the keyword priors alone, built once, for callers without artefact. */
function fallbackClassifier(): ClassifierParams {
  keywordOnly ??= fitCategoryClassifier([]);
  return keywordOnly;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

function textSignals(text: string, classifier: ClassifierParams, tools: boolean): Signal[] {
  const tokens = countPromptTokens(text);
  const code = codeScore(text);
  const math = mathScore(text);
  const script = dominantScript(text);
  const options = choiceOptions(text);
  const category = classifyCategory(classifier, text);
  const difficulty = estimateDifficulty({ text, tokens: tokens.tokens, code, math, tools });
  return [
    { name: 'prompt_tokens', value: tokens.tokens, confidence: tokens.exact ? 1 : 0.8 },
    { name: 'code', value: code >= 0.5, confidence: r3(code >= 0.5 ? code : 1 - code) },
    { name: 'math', value: math >= 0.5, confidence: r3(math >= 0.5 ? math : 1 - math) },
    { name: 'language_script', value: script.script, confidence: r3(script.share) },
    { name: 'multiple_choice', value: options, confidence: options >= 2 ? 0.9 : 0.7 },
    { name: 'category', value: category.category, confidence: r3(category.confidence) },
    { name: 'difficulty', value: difficulty.value, confidence: 0.5, detail: difficulty.cues.join(', ') },
  ];
}

function requestSignals(f: RequestFacts): Signal[] {
  return [
    { name: 'history_messages', value: f.messages, confidence: 1 },
    { name: 'history_tokens', value: Math.ceil(f.historyChars / 4), confidence: 0.8 },
    { name: 'images', value: f.images, confidence: 1 },
    { name: 'documents', value: f.documents, confidence: 1 },
    { name: 'tools', value: f.tools, confidence: 1 },
    { name: 'json_output', value: f.jsonOutput, confidence: 1 },
    { name: 'thinking', value: f.thinking, confidence: 1 },
  ];
}

/** All signals for a prompt text and, when given, the request it came from. */
export function extractSignals(input: SignalInput, options: SignalOptions = {}): Signal[] {
  const facts = input.request ? requestFacts(input.request) : undefined;
  const signals = textSignals(input.text, options.classifier ?? fallbackClassifier(), (facts?.tools ?? 0) > 0);
  if (facts) signals.push(...requestSignals(facts));
  return signals;
}

/** The value of a named signal, or undefined. */
export function signalValue(signals: Signal[], name: string): Signal['value'] | undefined {
  return signals.find((s) => s.name === name)?.value;
}
