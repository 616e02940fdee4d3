import { GatewayError } from '@rosetta/canonical';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

/**
 * Validates a JSON body against a DTO class and throws a 400 naming the first bad field
 * (`messages[2].role`). The caller keeps using the original body: unknown fields are never
 * stripped, so they can still reach a same-protocol upstream.
 */
export function validateBody<T extends object>(dto: ClassConstructor<T>, body: unknown, what = 'request body'): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw GatewayError.invalidRequest(`The ${what} must be a JSON object`);
  }
  const instance = plainToInstance(dto, body, { enableImplicitConversion: false });
  const errors = validateSync(instance, { forbidUnknownValues: false, stopAtFirstError: true });
  const first = errors.length > 0 ? firstLeaf(errors[0]!, []) : undefined;
  if (first) throw GatewayError.invalidRequest(first.message, first.param);
  return instance;
}

function firstLeaf(error: ValidationError, path: string[]): { param: string; message: string } | undefined {
  const here = [...path, error.property];
  if (error.constraints?.['isDefined'] && error.value === undefined) {
    const param = formatPath(here);
    return { param, message: `Missing required field '${param}'` };
  }
  if (error.constraints) {
    const raw = Object.values(error.constraints)[0] ?? 'is invalid';
    const param = formatPath(here);
    // class-validator starts messages with the bare property name; name the full path instead.
    const detail = raw.startsWith(`${error.property} `) ? raw.slice(error.property.length + 1) : raw;
    return { param, message: `Invalid '${param}': ${detail}` };
  }
  for (const child of error.children ?? []) {
    const found = firstLeaf(child, here);
    if (found) return found;
  }
  return undefined;
}

/** `['messages', '2', 'role']` → `messages[2].role`. */
export function formatPath(parts: readonly string[]): string {
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}
