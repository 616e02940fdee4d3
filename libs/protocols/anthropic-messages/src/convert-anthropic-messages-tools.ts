/**
 * `tools` and `tool_choice` from a dialect-B body. Custom tools have a canonical form; Anthropic's
 * versioned server tools (`web_search_20250305`, `bash_20250124`…) do not, and are dropped with a
 * warning: the fast path still carries them to an Anthropic upstream untouched.
 */
import type { Converted, ToolChoice, ToolDefinition, TranslationWarning } from '@rosetta/canonical';
import {
  compact,
  fieldPath,
  invalidField,
  isAbsent,
  isRecord,
  optionalBoolean,
  optionalRecord,
  optionalString,
  requireEnum,
  requireList,
  requireString,
  type JsonObject,
} from '@rosetta/protocols/common';
import { cacheHint } from './convert-anthropic-messages-content';

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
  if (isAbsent(raw)) return undefined;
  const tools: ToolDefinition[] = [];
  for (const [i, entry] of requireList(raw, 'tools').entries()) {
    const path = `tools[${i}]`;
    if (!isRecord(entry)) throw invalidField(path, 'must be an object');
    const name = requireString(entry, 'name', path);
    const type = optionalString(entry, 'type', path);
    if (type === undefined || type === 'custom') {
      tools.push(convertCustomTool(entry, name, path));
      continue;
    }
    warnings.push({
      feature: path,
      message: `Server tool '${name}' (${type}) only reaches Anthropic upstreams; dropped for others.`,
    });
  }
  return tools.length > 0 ? tools : undefined;
}

function convertCustomTool(tool: JsonObject, name: string, path: string): ToolDefinition {
  const parameters = tool['input_schema'];
  // Required even when absent: "must be an object" says what to send.
  if (!isRecord(parameters)) throw invalidField(fieldPath(path, 'input_schema'), 'must be an object');
  return compact({
    name,
    description: optionalString(tool, 'description', path),
    parameters,
    strict: optionalBoolean(tool, 'strict', path),
    cache: cacheHint(tool, path),
  });
}

function convertToolChoice(choice: JsonObject): ToolChoice {
  const type = requireEnum(choice, 'type', ['auto', 'any', 'tool', 'none'] as const, 'tool_choice');
  switch (type) {
    case 'auto':
    case 'none':
      return { type };
    case 'any':
      return { type: 'required' };
    case 'tool':
      return { type: 'tool', name: requireString(choice, 'name', 'tool_choice') };
  }
}
