import { acceptsDimensions, embeddingInputTokens, float32Base64, nativeDimensions, simulatedEmbedding } from '../embedding-vectors';
import { isRecord } from '../http-io';
import { answerEmbeddings, refuse } from './embedding-reply';
import { renderPlannedError, type OpenAiError } from './openai-response';
import type { ProtocolModule, SimExchange } from './protocol-module';

const PATHS = new Set(['/v1/embeddings', '/embeddings']);
const FIELDS = new Set(['model', 'input', 'dimensions', 'encoding_format', 'user']);
const MAX_INPUTS = 2048;

interface OpenAiEmbeddingsRequest {
  model: string;
  inputs: Array<string | number[]>;
  dimensions?: number;
  base64: boolean;
}

class Refusal extends Error {
  constructor(
    message: string,
    readonly param: string | null,
  ) {
    super(message);
  }
}

const invalidInput = (): Refusal => new Refusal("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", 'input');
const isTokens = (value: unknown): value is number[] => Array.isArray(value) && value.length > 0 && value.every((t) => Number.isInteger(t) && (t as number) >= 0);

/** As strict as OpenAI: unknown arguments, empty inputs, a size the model cannot give are 400s. */
function readRequest(body: unknown): OpenAiEmbeddingsRequest {
  if (!isRecord(body)) throw new Refusal('The request body must be a JSON object.', null);
  const unknown = Object.keys(body).find((key) => !FIELDS.has(key));
  if (unknown !== undefined) throw new Refusal(`Unrecognized request argument supplied: ${unknown}`, null);
  const { model, input, dimensions, encoding_format: format } = body;
  if (typeof model !== 'string' || model === '') throw new Refusal('you must provide a model parameter', null);
  if (format !== undefined && format !== null && format !== 'float' && format !== 'base64') throw new Refusal(`Invalid value for 'encoding_format': expected 'float' or 'base64'.`, 'encoding_format');
  if (body['user'] !== undefined && typeof body['user'] !== 'string') throw new Refusal("Invalid type for 'user': expected a string.", 'user');
  const inputs = readInputs(input);
  if (dimensions !== undefined && dimensions !== null) {
    if (!Number.isInteger(dimensions) || (dimensions as number) < 1) throw new Refusal("Invalid value for 'dimensions': expected a positive integer.", 'dimensions');
    if (!acceptsDimensions(model)) throw new Refusal('This model does not support specifying dimensions.', 'dimensions');
    if ((dimensions as number) > nativeDimensions(model)) throw new Refusal(`This model does not support dimensions larger than ${nativeDimensions(model)}.`, 'dimensions');
  }
  return { model, inputs, dimensions: typeof dimensions === 'number' ? dimensions : undefined, base64: format === 'base64' };
}

function readInputs(input: unknown): Array<string | number[]> {
  if (typeof input === 'string') {
    if (input === '') throw invalidInput();
    return [input];
  }
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_INPUTS) throw invalidInput();
  if (isTokens(input)) return [input];
  return input.map((item) => {
    if (typeof item === 'string' && item !== '') return item;
    if (isTokens(item)) return item;
    throw invalidInput();
  });
}

function answer(request: OpenAiEmbeddingsRequest): Record<string, unknown> {
  let tokens = 0;
  const data = request.inputs.map((input, index) => {
    tokens += embeddingInputTokens(input);
    const values = simulatedEmbedding({ model: request.model, input, dimensions: request.dimensions, flavour: 'openai' });
    return { object: 'embedding', index, embedding: request.base64 ? float32Base64(values) : values };
  });
  return { object: 'list', data, model: request.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

const errorBody = (message: string, param: string | null, code: string | null = null): { error: OpenAiError } => ({ error: { message, type: 'invalid_request_error', param, code } });

async function handle(exchange: SimExchange): Promise<void> {
  if (exchange.method !== 'POST') return refuse(exchange, 405, errorBody(`Invalid method for URL (${exchange.method} ${exchange.url.pathname}).`, null));
  if (!/^Bearer\s+\S+/i.test(exchange.headers['authorization'] ?? '')) return refuse(exchange, 401, errorBody("You didn't provide an API key.", null, 'invalid_api_key'));
  if (!exchange.body.ok) return refuse(exchange, 400, errorBody(`We could not parse the JSON body of your request. ${exchange.body.error}`, null));
  let request: OpenAiEmbeddingsRequest;
  try {
    request = readRequest(exchange.body.value);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return refuse(exchange, 400, errorBody(error.message, error.param));
  }
  const texts = request.inputs.map((input) => (typeof input === 'string' ? input : input.join(' ')));
  await answerEmbeddings(exchange, { model: request.model, texts }, renderPlannedError, () => answer(request));
}

/** OpenAI `POST /v1/embeddings`: deterministic vectors, `dimensions`, `encoding_format: base64`, usage. */
export const openAiEmbeddingsProtocol: ProtocolModule = {
  protocol: 'openai',
  handles: (_method, pathname) => PATHS.has(pathname),
  handle,
};
