import { GatewayError } from '@rosetta/canonical';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';

export interface ValidateBodyOptions {
  /** What the message calls the whole value when it is not an object ("request body"). */
  what?: string;
  /**
   * Refuse fields the DTO does not declare (`Unknown field 'rmp'`): for bodies where a typo would
   * otherwise be silently ignored, such as a PATCH that changes only what it names.
   */
  rejectUnknown?: boolean;
}

/**
 * Validates a JSON body against a DTO class and throws a 400 naming the first bad field
 * (`providers[0].endpoints[1].context_length`). The caller keeps using the original body: unknown
 * fields are never stripped. Messages say what is wrong in words an operator can act on: a field
 * left out is "required", a fraction where a count belongs "must be a whole number", and a null is
 * never described by a range it could not have met.
 */
export function validateBody<T extends object>(dto: ClassConstructor<T>, body: unknown, options: ValidateBodyOptions | string = {}): T {
  const { what = 'request body', rejectUnknown = false } = typeof options === 'string' ? { what: options } : options;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw GatewayError.invalidRequest(`The ${what} must be a JSON object`);
  }
  const instance = plainToInstance(dto, body, { enableImplicitConversion: false });
  // Every constraint of a field is collected (no stopAtFirstError) so the most basic one, its type,
  // is the one reported; class-validator would otherwise run `@Max` before `@IsInt`.
  const errors = validateSync(instance, { forbidUnknownValues: false, whitelist: rejectUnknown, forbidNonWhitelisted: rejectUnknown });
  const first = firstProblem(errors, []);
  if (first) throw GatewayError.invalidRequest(first.message, first.param);
  return instance;
}

/** A field's first problem, depth first, in the order the DTO declares its fields. */
function firstProblem(errors: readonly ValidationError[], path: string[]): { param: string; message: string } | undefined {
  for (const error of errors) {
    const found = describe(error, path);
    if (found) return found;
  }
  return undefined;
}

function describe(error: ValidationError, path: string[]): { param: string; message: string } | undefined {
  const here = [...path, error.property];
  const param = formatPath(here);
  const constraints = error.constraints ?? {};
  if (constraints['whitelistValidation']) return { param, message: `Unknown field '${param}'` };
  if (Object.keys(constraints).length > 0) {
    if (error.value === undefined) return { param, message: `Missing required field '${param}'` };
    return { param, message: `Invalid '${param}': ${detail(error.property, constraints, error.value)}` };
  }
  return firstProblem(error.children ?? [], here);
}

/** Constraints about size or range: reported only when the value has the right type. */
const RANGE_CONSTRAINTS = new Set([
  'min', 'max', 'minLength', 'maxLength', 'isLength', 'arrayMinSize', 'arrayMaxSize', 'arrayNotEmpty', 'arrayUnique', 'minDate', 'maxDate', 'isNotEmpty',
]);

function rank(name: string): number {
  if (name === 'isDefined') return 3;
  if (RANGE_CONSTRAINTS.has(name)) return 2;
  if (name === 'nestedValidation') return 1; // after isArray/isObject, which say the same more precisely
  return 0;
}

function detail(property: string, constraints: Record<string, string>, value: unknown): string {
  const ordered = Object.entries(constraints).sort(([a], [b]) => rank(a) - rank(b));
  const [name, raw] = ordered[0]!;
  if (value === null) {
    // A null never fails a range check; say what the field must be instead.
    return rank(name) < 2 ? `${reword(name, property, raw)}, not null` : 'must not be null';
  }
  return reword(name, property, raw);
}

/** class-validator's default wording, made plain; custom messages pass through. */
function reword(name: string, property: string, raw: string): string {
  // class-validator starts messages with the bare property name; the caller names the full path.
  const text = raw.startsWith(`${property} `) ? raw.slice(property.length + 1) : raw;
  switch (name) {
    case 'isInt':
      return text === 'must be an integer number' ? 'must be a whole number' : text;
    case 'isNumber':
      return text === 'must be a number conforming to the specified constraints' ? 'must be a number' : text;
    case 'isBoolean':
      return text === 'must be a boolean value' ? 'must be true or false' : text;
    case 'isIn':
      return text.replace(/^must be one of the following values: /, 'must be one of ');
    case 'nestedValidation':
      return /^nested property .* must be either object or array$/.test(text) ? 'must be an object' : text;
    default:
      return text;
  }
}

/** `['messages', '2', 'role']` → `messages[2].role`. */
export function formatPath(parts: readonly string[]): string {
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

/**
 * What `validateBody` checked, and nothing else: the fields the DTO declares (nested DTOs alike),
 * without the unknown fields a body may carry beside them. For records of a change (the audit log).
 */
export function validatedFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(validatedFields);
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  const declared = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(value.constructor, '', true, false)
      .map((m) => m.propertyName),
  );
  if (declared.size === 0) return value;
  return Object.fromEntries(Object.entries(value).filter(([name, item]) => declared.has(name) && item !== undefined).map(([name, item]) => [name, validatedFields(item)]));
}
