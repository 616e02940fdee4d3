import type { SimError } from '../reply-plan';
import type { StreamFrame } from '../sse-stream';

type Severity = { filtered: boolean; severity: 'safe' | 'high' };

const SAFE: Severity = { filtered: false, severity: 'safe' };
/** The category a scripted refusal is filtered under; scripts cannot choose one. */
const FILTERED: Severity = { filtered: true, severity: 'high' };

function completionResults(filtered: boolean): Record<string, Severity> {
  return { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: filtered ? FILTERED : SAFE };
}

function promptResults(filtered: boolean): Record<string, unknown> {
  return { ...completionResults(filtered), jailbreak: { filtered: false, detected: false } };
}

/** What Azure adds to every completion: the prompt's filter verdict. */
export const PROMPT_FILTER_RESULTS = [{ prompt_index: 0, content_filter_results: promptResults(false) }];

/** Azure's non-streamed completion: OpenAI's, plus filter verdicts on the prompt and each choice. */
export function azureCompletion(completion: Record<string, unknown>): Record<string, unknown> {
  const choices = (completion['choices'] as Record<string, unknown>[]).map((choice) => ({
    ...choice,
    content_filter_results: completionResults(choice['finish_reason'] === 'content_filter'),
  }));
  return { ...completion, choices, prompt_filter_results: PROMPT_FILTER_RESULTS };
}

/** Azure's first stream event: no choices, only the prompt's filter verdict. */
const PROMPT_FILTER_FRAME: StreamFrame = {
  data: `data: ${JSON.stringify({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: PROMPT_FILTER_RESULTS })}\n\n`,
  tokens: 0,
  phase: 'open',
};

function withChoiceResults(frame: StreamFrame): StreamFrame {
  if (typeof frame.data !== 'string' || !frame.data.startsWith('data: {')) return frame;
  const chunk = JSON.parse(frame.data.slice('data: '.length)) as Record<string, unknown>;
  const choices = chunk['choices'];
  if (!Array.isArray(choices) || choices.length === 0) return frame;
  const annotated = (choices as Record<string, unknown>[]).map((choice) => {
    const finish = choice['finish_reason'];
    // Azure annotates content as its filter passes it; the role chunk and a clean finish carry {}.
    const results = finish === 'content_filter' ? completionResults(true) : frame.phase === 'body' ? completionResults(false) : {};
    return { ...choice, content_filter_results: results };
  });
  return { ...frame, data: `data: ${JSON.stringify({ ...chunk, choices: annotated })}\n\n` };
}

/** An OpenAI chat stream as Azure sends it: the prompt verdict first, then annotated chunks. */
export function azureStreamFrames(frames: readonly StreamFrame[]): StreamFrame[] {
  return [PROMPT_FILTER_FRAME, ...frames.map(withChoiceResults)];
}

const FILTERED_PROMPT =
  "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766";

/**
 * A planned error as Azure sends it. A scripted `type: "content_filter"` is the prompt-filter
 * refusal (400 with the verdict in `innererror`); 429 uses Azure's rate-limit envelope.
 */
export function azurePlannedError(error: SimError): { status: number; body: unknown; headers: Record<string, string> } | undefined {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.type === 'content_filter') {
    const innererror = { code: 'ResponsibleAIPolicyViolation', content_filter_result: promptResults(true) };
    const message = error.message === '' ? FILTERED_PROMPT : error.message;
    return { status: error.status, headers, body: { error: { message, type: null, param: 'prompt', code: 'content_filter', status: error.status, innererror } } };
  }
  if (error.status === 429) return { status: 429, headers, body: { error: { code: '429', message: error.message } } };
  return undefined;
}
