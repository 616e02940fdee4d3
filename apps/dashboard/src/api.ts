/**
 * Calls to the admin API from the page. The session cookie goes along by itself (same origin,
 * HttpOnly: no script here can read it); every call names itself with the dashboard header,
 * which the gateway requires for changes made with a session (cross-site request protection).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The field the gateway named as wrong (`budget_usd`, `models[1]`), when it named one. */
    readonly param?: string,
  ) {
    super(message);
  }
}

let onSignedOut: () => void = () => undefined;

/** Called when a call finds the session gone (expired, or signed out elsewhere). */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { 'x-rosetta-dashboard': '1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The gateway cannot be reached: is it running? Check your connection and try again.');
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { message?: string; param?: string | null } } | undefined)?.error;
    const message = error?.message ?? `The gateway answered ${response.status} ${response.statusText}`;
    if (response.status === 401 && path !== '/admin/session') onSignedOut();
    throw new ApiError(response.status, message, error?.param ?? undefined);
  }
  return parsed as T;
}

export const get = <T>(path: string): Promise<T> => api<T>('GET', path);

/** Query strings without empty values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
