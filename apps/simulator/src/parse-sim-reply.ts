import { isRecord } from './http-io';
import { withoutUndefined } from './reply-limits';
import type { Script, SimError, SimFault, SimFaultKind, SimFinish, SimReply, SimThinking, SimToolCall, SimUsage } from './reply-plan';

/** A script or directive that does not describe a valid reply; the message names the field. */
export class SimReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SimReplyError';
  }
}

type Reader<T> = (value: unknown, path: string) => T;

const FINISHES: readonly SimFinish[] = ['stop', 'length', 'tool_calls', 'content_filter', 'stop_sequence'];
const REPLY_KEYS = [
  'text', 'thinking', 'toolCalls', 'finish', 'stopSequence', 'usage', 'error',
  'streamErrorAfterChunks', 'latencyMs', 'tokensPerSecond', 'dropConnectionAfterChunks', 'fault',
] as const;
const FAULT_KINDS: readonly SimFaultKind[] = ['hang', 'reset', 'garbage', 'half-body', 'stall'];

const readString: Reader<string> = (value, path) => {
  if (typeof value !== 'string') throw new SimReplyError(`${path} must be a string`);
  return value;
};

const readCount: Reader<number> = (value, path) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new SimReplyError(`${path} must be a non-negative integer`);
  }
  return value;
};

const readAmount: Reader<number> = (value, path) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new SimReplyError(`${path} must be a non-negative number`);
  }
  return value;
};

const readFinish: Reader<SimFinish> = (value, path) => {
  const found = FINISHES.find((finish) => finish === value);
  if (!found) throw new SimReplyError(`${path} must be one of ${FINISHES.join(', ')}`);
  return found;
};

function readObject(value: unknown, path: string, allowed: readonly string[]): Record<string, unknown> {
  if (!isRecord(value)) throw new SimReplyError(`${path} must be an object`);
  const unknownKey = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknownKey !== undefined) throw new SimReplyError(`${path}.${unknownKey} is not a known field`);
  return value;
}

function optional<T>(source: Record<string, unknown>, key: string, read: Reader<T>, path: string): T | undefined {
  const value = source[key];
  return value === undefined || value === null ? undefined : read(value, `${path}.${key}`);
}

const readThinking: Reader<SimThinking> = (value, path) => {
  const source = readObject(value, path, ['text', 'signature']);
  return withoutUndefined({
    text: readString(source['text'], `${path}.text`),
    signature: optional(source, 'signature', readString, path),
  });
};

const readToolCall: Reader<SimToolCall> = (value, path) => {
  const source = readObject(value, path, ['id', 'name', 'arguments']);
  const args = source['arguments'] ?? {};
  if (!isRecord(args)) throw new SimReplyError(`${path}.arguments must be an object`);
  return withoutUndefined({
    id: optional(source, 'id', readString, path),
    name: readString(source['name'], `${path}.name`),
    arguments: args,
  });
};

const readToolCalls: Reader<SimToolCall[]> = (value, path) => {
  if (!Array.isArray(value)) throw new SimReplyError(`${path} must be an array`);
  return value.map((call, index) => readToolCall(call, `${path}[${index}]`));
};

const readUsage: Reader<SimUsage> = (value, path) => {
  const source = readObject(value, path, ['input', 'output', 'cached', 'reasoning']);
  return withoutUndefined({
    input: optional(source, 'input', readCount, path),
    output: optional(source, 'output', readCount, path),
    cached: optional(source, 'cached', readCount, path),
    reasoning: optional(source, 'reasoning', readCount, path),
  });
};

const readError: Reader<SimError> = (value, path) => {
  const source = readObject(value, path, ['status', 'message', 'type', 'retryAfterSeconds']);
  const status = readCount(source['status'], `${path}.status`);
  if (status < 400 || status > 599) throw new SimReplyError(`${path}.status must be between 400 and 599`);
  return withoutUndefined({
    status,
    message: readString(source['message'], `${path}.message`),
    type: optional(source, 'type', readString, path),
    retryAfterSeconds: optional(source, 'retryAfterSeconds', readAmount, path),
  });
};

const readFault: Reader<SimFault> = (value, path) => {
  const source = readObject(value, path, ['kind', 'afterChunks']);
  const kind = FAULT_KINDS.find((candidate) => candidate === source['kind']);
  if (!kind) throw new SimReplyError(`${path}.kind must be one of ${FAULT_KINDS.join(', ')}`);
  const afterChunks = optional(source, 'afterChunks', readCount, path);
  if (kind === 'garbage' || kind === 'stall') return withoutUndefined({ kind, afterChunks });
  if (afterChunks !== undefined) throw new SimReplyError(`${path}.afterChunks applies only to garbage and stall`);
  return { kind };
};

/** One way to fail per reply: a fault replaces the error, the stream error and the cut. */
function checkOneFailure(reply: SimReply, path: string): SimReply {
  const others = (['error', 'streamErrorAfterChunks', 'dropConnectionAfterChunks'] as const).filter((key) => reply[key] !== undefined);
  if (reply.fault && others.length > 0) throw new SimReplyError(`${path}.fault cannot be combined with ${others.join(', ')}`);
  return reply;
}

/** Narrows untrusted JSON (a control-API body or a `<sim>` directive) into a SimReply. */
export function parseSimReply(value: unknown, path = 'reply'): SimReply {
  const source = readObject(value, path, REPLY_KEYS);
  const reply = withoutUndefined({
    text: optional(source, 'text', readString, path),
    thinking: optional(source, 'thinking', readThinking, path),
    toolCalls: optional(source, 'toolCalls', readToolCalls, path),
    finish: optional(source, 'finish', readFinish, path),
    stopSequence: optional(source, 'stopSequence', readString, path),
    usage: optional(source, 'usage', readUsage, path),
    error: optional(source, 'error', readError, path),
    streamErrorAfterChunks: optional(source, 'streamErrorAfterChunks', readCount, path),
    latencyMs: optional(source, 'latencyMs', readAmount, path),
    tokensPerSecond: optional(source, 'tokensPerSecond', readAmount, path),
    dropConnectionAfterChunks: optional(source, 'dropConnectionAfterChunks', readCount, path),
    fault: optional(source, 'fault', readFault, path),
  });
  return checkOneFailure(reply, path);
}

export function parseScript(value: unknown): Script {
  const source = readObject(value, 'script', ['match', 'reply', 'times', 'model']);
  const match = readString(source['match'], 'script.match');
  if (match === '') throw new SimReplyError('script.match must not be empty');
  const times = optional(source, 'times', readCount, 'script');
  if (times === 0) throw new SimReplyError('script.times must be at least 1');
  const model = source['model'] === undefined ? undefined : readString(source['model'], 'script.model');
  return withoutUndefined({ match, reply: parseSimReply(source['reply'], 'script.reply'), times, model });
}
