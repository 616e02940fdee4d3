import { acceptsDimensions, nativeDimensions, simulatedEmbedding } from '../embedding-vectors';
import { isRecord } from '../http-io';
import { answerEmbeddings, refuse } from './embedding-reply';
import { geminiError, renderGeminiPlannedError } from './gemini-response';
import type { ProtocolModule, SimExchange } from './protocol-module';

/** `{model}` may itself contain slashes; the method follows the last colon. */
const PATH = /^\/(?:v1beta|v1)\/models\/(.+):(embedContent|batchEmbedContents)$/;
const TASK_TYPES = new Set([
  'TASK_TYPE_UNSPECIFIED', 'RETRIEVAL_QUERY', 'RETRIEVAL_DOCUMENT', 'SEMANTIC_SIMILARITY', 'CLASSIFICATION',
  'CLUSTERING', 'QUESTION_ANSWERING', 'FACT_VERIFICATION', 'CODE_RETRIEVAL_QUERY',
]);
const ITEM_FIELDS = ['model', 'content', 'taskType', 'title', 'outputDimensionality'];
const MAX_BATCH = 100;

interface EmbedItem {
  text: string;
  taskType?: string;
  title?: string;
  dimensions?: number;
}

class Refusal extends Error {}

const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A proto field by either spelling (proto3 JSON); unknown names are refused as Google does. */
function fields(source: Record<string, unknown>, allowed: readonly string[], message: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    const name = allowed.find((field) => field === key || snake(field) === key);
    if (name === undefined) throw new Refusal(`Invalid JSON payload received. Unknown name "${key}" at '${message}': Cannot find field.`);
    out[name] = value;
  }
  return out;
}

function readItem(raw: unknown, where: string, model: string, batch: boolean): EmbedItem {
  if (!isRecord(raw)) throw new Refusal(`* ${where}: must be an object`);
  const item = fields(raw, ITEM_FIELDS, where);
  if (item['model'] !== undefined || batch) {
    if (item['model'] !== `models/${model}`) throw new Refusal(`* ${where}.model: the model must be 'models/${model}', the model in the URL`);
  }
  if (!isRecord(item['content'])) throw new Refusal(`* ${where}.content: required`);
  const content = fields(item['content'], ['parts', 'role'], `${where}.content`);
  if (!Array.isArray(content['parts']) || content['parts'].length === 0) throw new Refusal(`* ${where}.content.parts: required`);
  const texts = content['parts'].map((part, i) => {
    const text = isRecord(part) ? fields(part, ['text'], `${where}.content.parts[${i}]`)['text'] : undefined;
    if (typeof text !== 'string') throw new Refusal(`* ${where}.content.parts[${i}]: only text can be embedded with this model`);
    return text;
  });
  const { taskType, title, outputDimensionality: dimensions } = item;
  if (taskType !== undefined && (typeof taskType !== 'string' || !TASK_TYPES.has(taskType))) throw new Refusal(`Invalid value at '${where}.task_type' (type.googleapis.com/google.ai.generativelanguage.v1beta.TaskType), ${JSON.stringify(taskType)}`);
  if (title !== undefined && typeof title !== 'string') throw new Refusal(`Invalid value at '${where}.title' (TYPE_STRING), ${JSON.stringify(title)}`);
  if (dimensions !== undefined) {
    if (!Number.isInteger(dimensions) || (dimensions as number) < 1) throw new Refusal(`* ${where}.output_dimensionality: must be a positive integer`);
    if (!acceptsDimensions(model) || (dimensions as number) > nativeDimensions(model)) throw new Refusal(`* ${where}.output_dimensionality: must be at most ${nativeDimensions(model)} for this model`);
  }
  return { text: texts.join(''), taskType: taskType as string | undefined, title: title as string | undefined, dimensions: dimensions as number | undefined };
}

function readItems(body: unknown, model: string, batch: boolean): EmbedItem[] {
  if (!isRecord(body)) throw new Refusal('Invalid JSON payload received. Expected an object.');
  if (!batch) return [readItem(body, 'EmbedContentRequest', model, false)];
  const top = fields(body, ['requests'], 'BatchEmbedContentsRequest');
  const requests = top['requests'];
  if (!Array.isArray(requests) || requests.length === 0) throw new Refusal('* BatchEmbedContentsRequest.requests: required');
  if (requests.length > MAX_BATCH) throw new Refusal(`* BatchEmbedContentsRequest.requests: at most ${MAX_BATCH} requests can be in one batch`);
  return requests.map((item, i) => readItem(item, `BatchEmbedContentsRequest.requests[${i}]`, model, true));
}

function vectorOf(model: string, item: EmbedItem): { values: number[] } {
  return { values: simulatedEmbedding({ model, input: item.text, dimensions: item.dimensions, taskType: item.taskType, title: item.title, flavour: 'gemini' }) };
}

async function handle(exchange: SimExchange): Promise<void> {
  const match = PATH.exec(exchange.url.pathname)!;
  let model = match[1]!;
  try {
    model = decodeURIComponent(model);
  } catch {
    // A bad escape stays as sent: the client's problem, not a reason to fail here.
  }
  const batch = match[2] === 'batchEmbedContents';
  if (exchange.method !== 'POST') return refuse(exchange, 405, geminiError(405, `Method ${exchange.method} is not allowed; use POST.`, 'INVALID_ARGUMENT'));
  const key = exchange.headers['x-goog-api-key'] ?? exchange.url.searchParams.get('key');
  if (!key || key.trim() === '') return refuse(exchange, 403, geminiError(403, 'Method doesn\'t allow unregistered callers. Please use API Key.'));
  if (!exchange.body.ok) return refuse(exchange, 400, geminiError(400, `Invalid JSON payload received. ${exchange.body.error}`));
  let items: EmbedItem[];
  try {
    items = readItems(exchange.body.value, model, batch);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return refuse(exchange, 400, geminiError(400, error.message));
  }
  const texts = items.map((item) => item.text);
  await answerEmbeddings(exchange, { model, texts }, renderGeminiPlannedError, () =>
    batch ? { embeddings: items.map((item) => vectorOf(model, item)) } : { embedding: vectorOf(model, items[0]!) },
  );
}

/** Gemini `:embedContent` and `:batchEmbedContents` (at most 100): deterministic vectors, no usage, as Google answers. */
export const geminiEmbeddingsProtocol: ProtocolModule = {
  protocol: 'gemini',
  handles: (_method, pathname) => PATH.test(pathname),
  handle,
};
