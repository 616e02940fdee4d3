import { GatewayError } from '@rosetta/canonical';

/**
 * ARCHITECTURE §4.1: public ids are `<namespace>/<name>`. Anything outside the namespace, a bare
 * namespace, `<ns>/`, or a doubled namespace is a 400; the registry decides the 404.
 * Returns the name after the namespace.
 */
export function parseModelId(model: unknown, namespace: string, param = 'model'): string {
  const text = typeof model === 'string' ? model : '';
  const prefix = `${namespace}/`;
  const name = text.startsWith(prefix) ? text.slice(prefix.length) : '';
  const doubled = name === namespace || name.startsWith(prefix);
  if (!name || doubled || /\s/.test(name)) {
    throw GatewayError.invalidRequest(`invalid model '${text}': only ${namespace}/* models are supported`, param);
  }
  return name;
}

/**
 * The names a model may be given when it is written (admin API, PROVIDERS_FILE, catalog): ASCII
 * letters, digits and `. _ : @ + - /`, starting with a letter or digit, at most 128 characters. An id
 * goes out in the x-rosetta-model header and in URLs, so nothing outside this set is ever stored.
 */
export const MODEL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@+/-]{0,127}$/;

/** Refuses (400 naming `param`) a model name that breaks MODEL_NAME_PATTERN or has an empty path segment. */
export function checkModelName(name: string, param: string): void {
  if (MODEL_NAME_PATTERN.test(name) && !name.includes('//') && !name.endsWith('/')) return;
  const shown = JSON.stringify(name.slice(0, 140));
  throw GatewayError.invalidRequest(
    `Invalid '${param}': a model name is 1 to 128 ASCII letters, digits and . _ : @ + - / (starting with a letter or digit, no empty segment), got ${shown}`,
    param,
  );
}

export function modelNotFound(model: string, param = 'model', suggestion?: string): GatewayError {
  const hint = suggestion ? `; did you mean '${suggestion}'?` : '';
  return new GatewayError('model_registry_error', `Model '${model}' not found${hint}`, { param });
}

/** Dots, underscores and case do not make a model id different to a person reading it. */
function normalise(id: string): string {
  return id.toLowerCase().replace(/[._\s]/g, '-');
}

/**
 * The known id a mistyped one most likely meant (`rosetta/claude-haiku-4.5` → `rosetta/claude-haiku-4-5`):
 * the same after normalising, or within a small edit distance; undefined when nothing is close.
 */
export function nearestModelId(wanted: string, known: readonly string[]): string | undefined {
  const target = normalise(wanted);
  let best: { id: string; distance: number } | undefined;
  for (const id of known) {
    const distance = editDistance(target, normalise(id), 3);
    if (distance <= 3 && (!best || distance < best.distance)) best = { id, distance };
  }
  return best?.id;
}

/** Levenshtein distance, giving up (returning limit + 1) once it must exceed `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
