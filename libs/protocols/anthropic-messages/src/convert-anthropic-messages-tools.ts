/**
 * `tools` and `tool_choice` from a dialect-B body. Custom tools have a canonical form; Anthropic's
 * versioned server tools (`web_search_20250305`, `bash_20250124`…) do not, and are dropped with a
 * warning: the fast path still carries them to an Anthropic upstream untouched.
 */
import type { Converted, ToolChoice, ToolDefinition, TranslationWarning } from '@rosetta/canonical';
import {
  compact,
  fieldPath,
  optionalBoolean,
  optionalRecord,
  optionalString,
  requireRecord,
  requireString,
  unsupported,
  type JsonObject,
} from '@rosetta/protocols/common';
import { requireArray } from './convert-anthropic-messages-content';

export interface AnthropicMessagesTools {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
}

export function convertAnthropicMessagesTools({ body }: { body: JsonObject }): Converted<AnthropicMessagesTools> {
  const warnings: TranslationWarning[] = [];
  const tools = convertTools(body['tools'], warnings);
  const choice = optionalRecord(body, 'tool_choice');
  const value = compact({
    tools,
    toolChoice: choice && convertToolChoice(choice),
    // Only an explicit refusal of parallel calls is a setting; `false` is every upstream's default.
    parallelToolCalls: choice && optionalBoolean(choice, 'disable_parallel_tool_use', 'tool_choice') === true ? false : undefined,
  });
  return { value, warnings };
}

function convertTools(raw: unknown, warnings: TranslationWarning[]): ToolDefinition[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  const tools: ToolDefinition[] = [];
  for (const [i, entry] of requireArray(raw, 'tools').entries()) {
    const path = `tools[${i}]`;
    const tool = requireRecord(entry, path);
    const type = optionalString(tool, 'type', path);
    if (type === undefined || type === 'custom') {
      tools.push(convertCustomTool(tool, path));
      continue;
    }
    const name = optionalString(tool, 'name', path) ?? type;
    warnings.push({
      feature: path,
      message: `Server tool '${name}' (${type}) only reaches Anthropic upstreams; dropped for others.`,
    });
  }
  return tools.length > 0 ? tools : undefined;
}

function convertCustomTool(tool: JsonObject, path: string): ToolDefinition {
  return compact({
    name: requireString(tool, 'name', path),
    description: optionalString(tool, 'description', path),
    parameters: requireRecord(tool['input_schema'], fieldPath(path, 'input_schema')),
    strict: optionalBoolean(tool, 'strict', path),
  });
}

function convertToolChoice(choice: JsonObject): ToolChoice {
  const type = requireString(choice, 'type', 'tool_choice');
  switch (type) {
    case 'auto':
    case 'none':
      return { type };
    case 'any':
      return { type: 'required' };
    case 'tool':
      return { type: 'tool', name: requireString(choice, 'name', 'tool_choice') };
    default:
      throw unsupported(`tool_choice type '${type}'`, 'tool_choice.type');
  }
}
