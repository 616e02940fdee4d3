/**
 * Canonical tools and tool choice → Converse `toolConfig`.
 *
 * Converse's `toolChoice` is `auto`, `any` or `tool`: there is no "none". With tool_choice none
 * the tools are not sent, which is exactly what none means (the messages converter then tells
 * earlier calls as text, since Bedrock refuses tool blocks without a toolConfig).
 */
import type { CanonicalRequest, ToolDefinition, TranslationWarning } from '@rosetta/canonical';
import { compact, type JsonObject } from '@rosetta/protocols/common';

/** The toolConfig, or undefined when no tools are to be sent. */
export function convertToBedrockConverseTools(request: CanonicalRequest, warnings: TranslationWarning[]): JsonObject | undefined {
  if (!request.tools || request.tools.length === 0) return undefined;
  const choice = request.toolChoice;
  if (choice?.type === 'none') return undefined;
  if (request.parallelToolCalls === false) warnings.push({ feature: 'parallel_tool_calls', message: 'Bedrock Converse cannot be told to call one tool at a time; the model may call several.' });
  if (request.tools.some((tool) => tool.strict)) warnings.push({ feature: 'strict', message: 'Bedrock Converse does not enforce tool schemas strictly; strict dropped.' });
  const toolChoice = choice?.type === 'required' ? { any: {} } : choice?.type === 'tool' ? { tool: { name: choice.name } } : choice?.type === 'auto' ? { auto: {} } : undefined;
  // A cache hint on a tool is a cachePoint right after it, as on a content block.
  return compact({ tools: request.tools.flatMap((tool) => (tool.cache ? [toToolSpec(tool), { cachePoint: { type: 'default' } }] : [toToolSpec(tool)])), toolChoice });
}

function toToolSpec(tool: ToolDefinition): JsonObject {
  // Converse requires an object schema (a tool without parameters takes an empty object) and
  // refuses an empty description.
  const schema = tool.parameters ? { ...tool.parameters, type: 'object' } : { type: 'object', properties: {} };
  return { toolSpec: compact({ name: tool.name, description: tool.description || undefined, inputSchema: { json: schema } }) };
}
