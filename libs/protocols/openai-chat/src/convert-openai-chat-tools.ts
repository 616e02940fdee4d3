/**
 * `tools` and `tool_choice` from a dialect-A body. Only function tools have a canonical form:
 * custom (free-text) tools and `allowed_tools` subsets are dropped with a warning rather than
 * refused, so a client that uses them still gets an answer from other upstreams.
 */
import type { Converted, ToolChoice, ToolDefinition, TranslationWarning } from '@rosetta/canonical';
import { requireArray } from './convert-openai-chat-content';
import { compact, fieldPath, optionalBoolean, optionalEnum, optionalRecord, optionalString, requireRecord, requireString, unsupported, isString, type JsonObject } from '@rosetta/protocols/common';

export interface OpenAIChatTools {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
}

const CHOICE_MODES = ['none', 'auto', 'required'] as const;

export function convertOpenAIChatTools({ body }: { body: JsonObject }): Converted<OpenAIChatTools> {
  const warnings: TranslationWarning[] = [];
  const tools = convertTools(body['tools'], warnings);
  const toolChoice = convertToolChoice(body['tool_choice'], warnings);
  return { value: compact({ tools, toolChoice }), warnings };
}

function convertTools(raw: unknown, warnings: TranslationWarning[]): ToolDefinition[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const tools: ToolDefinition[] = [];
  for (const [i, entry] of requireArray(raw, 'tools').entries()) {
    const path = `tools[${i}]`;
    const tool = requireRecord(entry, path);
    const type = requireString(tool, 'type', path);
    if (type === 'function') {
      tools.push(convertFunctionTool(tool, path));
    } else if (type === 'custom') {
      warnings.push({ feature: 'tools', message: `Custom tool at '${path}' has no equivalent upstream and was dropped.` });
    } else {
      throw unsupported(`tool type '${type}'`, fieldPath(path, 'type'));
    }
  }
  return tools.length > 0 ? tools : undefined;
}

function convertFunctionTool(tool: JsonObject, path: string): ToolDefinition {
  const functionPath = fieldPath(path, 'function');
  const fn = requireRecord(tool['function'], functionPath);
  return compact({
    name: requireString(fn, 'name', functionPath),
    description: optionalString(fn, 'description', functionPath),
    parameters: optionalRecord(fn, 'parameters', functionPath),
    strict: optionalBoolean(fn, 'strict', functionPath),
  });
}

function convertToolChoice(raw: unknown, warnings: TranslationWarning[]): ToolChoice | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (isString(raw)) {
    const mode = optionalEnum({ tool_choice: raw }, 'tool_choice', CHOICE_MODES);
    return mode === undefined ? undefined : { type: mode };
  }
  const choice = requireRecord(raw, 'tool_choice');
  const type = requireString(choice, 'type', 'tool_choice');
  switch (type) {
    case 'function': {
      const fn = requireRecord(choice['function'], 'tool_choice.function');
      return { type: 'tool', name: requireString(fn, 'name', 'tool_choice.function') };
    }
    case 'allowed_tools': {
      const allowed = requireRecord(choice['allowed_tools'], 'tool_choice.allowed_tools');
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
