import { ApiError } from './api';

/** A form's failure: the server's message, and which of the form's fields it names. */
export interface FormFailure {
  message: string;
  param?: string;
}

export function failureOf(error: unknown): FormFailure {
  if (error instanceof ApiError) return { message: error.message, param: error.param };
  return { message: String(error) };
}

/** The message for a field when the server named it (`models` matches `models[2]` too). */
export function messageFor(failure: FormFailure | undefined, ...fields: string[]): string | undefined {
  const param = failure?.param;
  if (!param) return undefined;
  return fields.some((field) => param === field || param.startsWith(`${field}[`) || param.startsWith(`${field}.`)) ? failure!.message : undefined;
}
