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

export function modelNotFound(model: string, param = 'model'): GatewayError {
  return new GatewayError('model_registry_error', `Model '${model}' not found`, { param });
}
