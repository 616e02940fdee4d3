import { faultBeforeHeaders, sendJsonWithFault } from '../fault-injection';
import { pause, sendJson } from '../http-io';
import type { NeutralRequest, SimError } from '../reply-plan';
import type { SimExchange } from './protocol-module';

/**
 * What chat and embeddings share in the simulator: the reply plan (scripts and `<sim>` directives
 * matched against the inputs' text, one input per line), latency, planned errors and transport
 * faults. A stream fault on an embeddings call is a whole-response failure, as on a non-streamed
 * chat reply. `body` builds the answer only when nothing failed.
 */
export async function answerEmbeddings(
  exchange: SimExchange,
  request: { model: string; texts: readonly string[] },
  renderError: (error: SimError) => { status: number; body: unknown; headers: Record<string, string> },
  body: () => unknown,
): Promise<void> {
  const neutral: NeutralRequest = { model: request.model, messages: [{ role: 'user', text: request.texts.join('\n') }], tools: [], toolChoice: 'auto', stream: false };
  const plan = exchange.plan(neutral);
  const { res, signal } = exchange;
  if (!(await pause(plan.latencyMs ?? exchange.settings.latencyMs, signal))) return;
  if (await faultBeforeHeaders(res, signal, plan.fault)) return;
  const failure = plan.error ?? (plan.streamErrorAfterChunks !== undefined ? { status: 500, message: 'The simulator was scripted to fail this response.' } : undefined);
  if (failure) {
    const rendered = renderError(failure);
    return sendJson(res, rendered.status, rendered.body, rendered.headers);
  }
  if (plan.dropConnectionAfterChunks !== undefined) {
    res.socket?.destroy();
    return;
  }
  return sendJsonWithFault(res, signal, plan.fault, 200, body());
}

/** An immediate answer (a refusal) after the configured latency. */
export async function refuse(exchange: SimExchange, status: number, body: unknown): Promise<void> {
  if (await pause(exchange.settings.latencyMs, exchange.signal)) sendJson(exchange.res, status, body);
}
