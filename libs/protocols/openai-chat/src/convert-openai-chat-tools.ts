/**
 * `tools` and `tool_choice` from a dialect-A body. Only function tools have a canonical form:
 * custom (free-text) tools and `allowed_tools` subsets are dropped with a warning rather than
 * refused, so a client that uses them still gets an answer from other upstreams.
 */
import type { Converted, ToolChoice, ToolDefinition, TranslationWarning } from '@rosetta/canonical';
import {
  compact,
  fieldPath,
  invalidField,
  isAbsent,
  isRecord,
  optionalBoolean,
  optionalEnum,
  optionalRecord,
  optionalString,
  requireEnum,
  requireList,
  requireMember,
  requireRecord,
  requireString,
  unsupported,
  type JsonObject,
} from '@rosetta/protocols/common';
import { recordItem } from './convert-openai-chat-content';

export interface OpenAIChatTools {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
}

const TOOL_TYPES = ['function', 'custom'] as const;
const CHOICE_MODES = ['none', 'auto', 'required'] as const;
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const CHOICE_SHAPE = "must be 'none', 'auto', 'required' or an object naming a tool";

export function convertOpenAIChatTools({ body }: { body: JsonObject }): Converted<OpenAIChatTools> {
  const warnings: TranslationWarning[] = [];
  const tools = convertTools(body['tools'], warnings);
  const toolChoice = convertToolChoice(body['tool_choice'], warnings);
  return { value: compact({ tools, toolChoice }), warnings };
}

function convertTools(raw: unknown, warnings: TranslationWarning[]): ToolDefinition[] | undefined {
  if (isAbsent(raw)) return undefined;
  const list = requireList(raw, 'tools');
  const tools: ToolDefinition[] = [];
  for (let i = 0; i < list.length; i++) {
    const path = `tools[${i}]`;
    const tool = recordItem(list[i], path);
    if (requireEnum(tool, 'type', TOOL_TYPES, path) === 'function') tools.push(convertFunctionTool(tool, path));
    else warnings.push({ feature: 'tools', message: `Custom tool at '${path}' has no equivalent upstream and was dropped.` });
  }
  return tools.length > 0 ? tools : undefined;
}

function convertFunctionTool(tool: JsonObject, path: string): ToolDefinition {
  const functionPath = fieldPath(path, 'function');
  const fn = requireRecord(tool['function'], functionPath);
  const name = requireMember(fn, 'name', functionPath);
  if (typeof name !== 'string' || !FUNCTION_NAME.test(name)) throw invalidField(fieldPath(functionPath, 'name'), 'must be 1-64 characters of a-z, A-Z, 0-9, _ and -');
  return compact({
    name,
    description: optionalString(fn, 'description', functionPath),
    parameters: optionalRecord(fn, 'parameters', functionPath),
    strict: optionalBoolean(fn, 'strict', functionPath),
  });
}

function convertToolChoice(raw: unknown, warnings: TranslationWarning[]): ToolChoice | undefined {
  if (isAbsent(raw)) return undefined;
  if (typeof raw === 'string') {
    const mode = CHOICE_MODES.find((candidate) => candidate === raw);
    if (mode === undefined) throw invalidField('tool_choice', CHOICE_SHAPE);
    return { type: mode };
  }
  if (!isRecord(raw) || typeof raw['type'] !== 'string') throw invalidField('tool_choice', CHOICE_SHAPE);
  const type = raw['type'];
  switch (type) {
    case 'function': {
      const fn = requireRecord(raw['function'], 'tool_choice.function');
      return { type: 'tool', name: requireString(fn, 'name', 'tool_choice.function') };
    }
    case 'allowed_tools': {
      const allowed = requireRecord(raw['allowed_tools'], 'tool_choice.allowed_tools');
      const mode = optionalEnum(allowed, 'mode', ['auto', 'required'] as const, 'tool_choice.allowed_tools') ?? 'auto';
      warnings.push({
        feature: 'tool_choice',
        message: `'allowed_tools' cannot restrict the tool set upstream; using '${mode}' over all tools.`,
      });
      return { type: mode };
    }
    case 'custom':
      warnings.push({ feature: 'tool_choice', message: "Custom tools were dropped, so 'tool_choice' falls back to 'auto'." });
      return { type: 'auto' };
    default:
      throw unsupported(`tool_choice type '${type}'`, 'tool_choice.type');
  }
}
