import type { ServerResponse } from 'node:http';
import { parseJson, sendJson } from './http-io';
import { parseScript, SimReplyError } from './parse-sim-reply';
import type { PromptCacheStore } from './prompt-cache/prompt-cache-store';
import type { RequestRecorder } from './request-recorder';
import type { ScriptBook } from './script-book';

export const CONTROL_PREFIX = '/_sim/';

export interface ControlDeps {
  scripts: ScriptBook;
  recorder: RequestRecorder;
  promptCaches: PromptCacheStore;
}

function controlError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: { message, type: 'simulator_control_error' } });
}

function addScript(deps: ControlDeps, rawBody: string, res: ServerResponse): void {
  const body = parseJson(rawBody);
  if (!body.ok) return controlError(res, 400, `body is not JSON: ${body.error}`);
  try {
    const script = parseScript(body.value);
    deps.scripts.add(script);
    sendJson(res, 201, { ok: true, script });
  } catch (error: unknown) {
    if (!(error instanceof SimReplyError)) throw error;
    controlError(res, 400, error.message);
  }
}

/**
 * The test-facing API under /_sim/: health, the request recorder, reply scripts and the prompt
 * caches (cleared with everything else by reset, so tests do not read each other's entries).
 * Control calls are never recorded themselves.
 */
export function handleControl(deps: ControlDeps, method: string, url: URL, rawBody: string, res: ServerResponse): void {
  const route = `${method} ${url.pathname.replace(/\/+$/, '')}`;
  switch (route) {
    case 'GET /_sim/health':
      return sendJson(res, 200, { ok: true });
    case 'GET /_sim/requests':
      return sendJson(res, 200, deps.recorder.list(url.searchParams.get('match') ?? undefined));
    case 'DELETE /_sim/requests':
      deps.recorder.clear();
      return sendJson(res, 200, { ok: true });
    case 'GET /_sim/scripts':
      return sendJson(res, 200, deps.scripts.list());
    case 'POST /_sim/scripts':
      return addScript(deps, rawBody, res);
    case 'DELETE /_sim/scripts':
      deps.scripts.clear();
      return sendJson(res, 200, { ok: true });
    case 'GET /_sim/prompt-cache':
      return sendJson(res, 200, { entries: deps.promptCaches.size() });
    case 'DELETE /_sim/prompt-cache':
      deps.promptCaches.clear();
      return sendJson(res, 200, { ok: true });
    case 'POST /_sim/reset':
      deps.recorder.clear();
      deps.scripts.clear();
      deps.promptCaches.clear();
      return sendJson(res, 200, { ok: true });
    default:
      return controlError(res, 404, `no control route ${method} ${url.pathname}`);
  }
}
