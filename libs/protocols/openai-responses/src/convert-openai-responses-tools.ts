/**
 * Responses `tools` and `tool_choice` → canonical. Function tools are flat (`name` and
 * `parameters` at the top); custom (free-form) tools become functions of one string, `input`,
 * with their grammar in the description for models that cannot be held to it; namespaces are
 * flattened (`crm__lookup`). Hosted tools (`web_search`, `file_search`, …) have no canonical form:
 * dropped with a warning here, forwarded untouched on the same-protocol path.
 */
import type { Converted, JsonSchema, ToolChoice, ToolDefinition, TranslationWarning } from '@rosetta/canonical';
import { compact, fieldPath, isRecord, isString, optionalBoolean, optionalEnum, optionalRecord, optionalString, requireRecord, requireString, unsupported, type JsonObject } from '@rosetta/protocols/common';
import { requireList } from './convert-openai-responses-content';
import { flatName } from './tool-names';

export interface ResponsesTools {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
}

const MODES = ['none', 'auto', 'required'] as const;

export function convertOpenAIResponsesTools({ body }: { body: JsonObject }): Converted<ResponsesTools> {
  const warnings: TranslationWarning[] = [];
  const tools: ToolDefinition[] = [];
  if (body['tools'] !== undefined && body['tools'] !== null) {
    for (const [i, raw] of requireList(body['tools'], 'tools').entries()) convertTool(requireRecord(raw, `tools[${i}]`), `tools[${i}]`, undefined, tools, warnings);
  }
  const toolChoice = convertToolChoice(body['tool_choice'], warnings);
  return { value: compact({ tools: tools.length > 0 ? tools : undefined, toolChoice }), warnings };
}

function convertTool(tool: JsonObject, path: string, namespace: ToolDefinition['namespace'], out: ToolDefinition[], warnings: TranslationWarning[]): void {
  const type = requireString(tool, 'type', path);
  switch (type) {
    case 'function':
      out.push(compact({ name: flatName(namespace?.name, requireString(tool, 'name', path)), description: optionalString(tool, 'description', path), parameters: optionalRecord(tool, 'parameters', path), strict: optionalBoolean(tool, 'strict', path), namespace }));
      return;
    case 'custom':
      out.push(customTool(tool, path, namespace));
      return;
    case 'namespace': {
      if (namespace) throw unsupported('a namespace inside a namespace', fieldPath(path, 'type'));
      const group = compact({ name: requireString(tool, 'name', path), description: optionalString(tool, 'description', path) });
      for (const [i, raw] of requireList(tool['tools'], fieldPath(path, 'tools')).entries()) {
        convertTool(requireRecord(raw, `${path}.tools[${i}]`), `${path}.tools[${i}]`, group, out, warnings);
      }
      return;
    }
    default:
      warnings.push({ feature: 'tools', message: `Tool '${path}' of type '${type}' is served only by a Responses upstream; dropped.` });
  }
}

function customTool(tool: JsonObject, path: string, namespace: ToolDefinition['namespace']): ToolDefinition {
  const format = optionalRecord(tool, 'format', path);
  const description = optionalString(tool, 'description', path);
  const grammar = format && format['type'] === 'grammar' && isString(format['definition']) ? `\n\nThe input must follow this ${isString(format['syntax']) ? format['syntax'] : ''} grammar:\n${format['definition']}` : '';
  const parameters: JsonSchema = { type: 'object', properties: { input: { type: 'string', description: 'The raw input for the tool.' } }, required: ['input'], additionalProperties: false };
  return compact({ name: flatName(namespace?.name, requireString(tool, 'name', path)), description: description === undefined && grammar === '' ? undefined : `${description ?? ''}${grammar}`, parameters, custom: compact({ format }), namespace });
}

function convertToolChoice(raw: unknown, warnings: TranslationWarning[]): ToolChoice | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (isString(raw)) {
    const mode = optionalEnum({ tool_choice: raw }, 'tool_choice', MODES);
    return mode === undefined ? undefined : { type: mode };
  }
  const choice = requireRecord(raw, 'tool_choice');
  const type = requireString(choice, 'type', 'tool_choice');
  switch (type) {
    case 'function':
    case 'custom':
      return { type: 'tool', name: flatName(optionalString(choice, 'namespace', 'tool_choice'), requireString(choice, 'name', 'tool_choice')) };
    case 'allowed_tools': {
      const mode = optionalEnum(choice, 'mode', ['auto', 'required'] as const, 'tool_choice') ?? 'auto';
      warnings.push({ feature: 'tool_choice', message: `'allowed_tools' cannot restrict the tool set upstream; using '${mode}' over all tools.` });
      return { type: mode };
    }
    default:
      if (!isRecord(choice)) throw unsupported(`tool_choice type '${type}'`, fieldPath('tool_choice', 'type'));
      warnings.push({ feature: 'tool_choice', message: `tool_choice '${type}' names a hosted tool; using 'auto'.` });
      return { type: 'auto' };
  }
}
