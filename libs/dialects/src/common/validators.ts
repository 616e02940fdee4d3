import { registerDecorator, type ValidationOptions } from 'class-validator';

/** A value that is one of several shapes, checked by a predicate; the message says which. */
export function Satisfies(
  predicate: (value: unknown, object: object) => boolean,
  message: string,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'satisfies',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message, ...options },
      validator: { validate: (value: unknown, args) => predicate(value, args?.object ?? {}) },
    });
  };
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const isStringOrStringArray = (v: unknown, max = Infinity): boolean =>
  typeof v === 'string' || (Array.isArray(v) && v.length <= max && v.every((s) => typeof s === 'string'));
