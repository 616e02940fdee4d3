/**
 * Dialect-C `tools` and `toolConfig`. Only function declarations have a canonical form; built-in
 * tools (googleSearch, codeExecution, urlContext, …) are left out with a warning, and still reach
 * a Gemini upstream through the fast path.
 */
import type { Converted, ToolChoice, ToolDefinition, TranslationWarning } from '@rosetta/canonical';
import {
  compact,
  invalidField,
  isAbsent,
  optionalEnum,
  requireList,
  optionalRecord,
  optionalString,
  optionalStringArray,
  requireRecord,
  requireString,
} from '@rosetta/protocols/common';
import { convertGeminiSchema } from './convert-gemini-schema';

export interface GeminiTools {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
}

export function convertGeminiTools({ tools, toolConfig }: { tools: unknown; toolConfig: unknown }): Converted<GeminiTools> {
  const warnings: TranslationWarning[] = [];
  const definitions = convertTools(tools, warnings);
  const toolChoice = convertToolConfig(toolConfig, warnings);
  return { value: compact({ tools: definitions, toolChoice }), warnings };
}

function convertTools(raw: unknown, warnings: TranslationWarning[]): ToolDefinition[] | undefined {
  if (isAbsent(raw)) return undefined;
  const definitions: ToolDefinition[] = [];
  requireList(raw, 'tools').forEach((entry, i) => {
    const path = `tools[${i}]`;
    const tool = requireRecord(entry, path);
    for (const [kind, value] of Object.entries(tool)) {
      if (value === undefined || value === null) continue;
      if (kind !== 'functionDeclarations') {
        warnings.push({ feature: path, message: `Tool '${kind}' has no equivalent outside Gemini; only a Gemini upstream receives it.` });
        continue;
      }
      if (!Array.isArray(value)) throw invalidField(`${path}.functionDeclarations`, 'must be an array');
      value.forEach((declaration, j) => definitions.push(convertDeclaration(declaration, `${path}.functionDeclarations[${j}]`)));
    }
  });
  return definitions.length > 0 ? definitions : undefined;
}

/** `parametersJsonSchema` is JSON Schema already; `parameters` is Gemini's OpenAPI subset. */
function convertDeclaration(raw: unknown, path: string): ToolDefinition {
  const declaration = requireRecord(raw, path);
  const jsonSchema = optionalRecord(declaration, 'parametersJsonSchema', path);
  const schema = declaration['parameters'];
  return compact({
    name: requireString(declaration, 'name', path),
    description: optionalString(declaration, 'description', path),
    parameters: jsonSchema ?? (schema === undefined || schema === null ? undefined : convertGeminiSchema(schema, `${path}.parameters`)),
  });
}

const MODES = ['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'] as const;

/**
 * AUTO → auto, NONE → none, ANY → required (or the one allowed function). VALIDATED lets the
 * model answer in text or call a function (it only adds schema validation), so it is `auto`.
 */
function convertToolConfig(raw: unknown, warnings: TranslationWarning[]): ToolChoice | undefined {
  if (isAbsent(raw)) return undefined;
  const config = optionalRecord(requireRecord(raw, 'toolConfig'), 'functionCallingConfig', 'toolConfig');
  if (!config) return undefined;
  const path = 'toolConfig.functionCallingConfig';
  const mode = optionalEnum(config, 'mode', MODES, path);
  const allowed = optionalStringArray(config, 'allowedFunctionNames', path) ?? [];
  switch (mode) {
    case undefined:
    case 'MODE_UNSPECIFIED':
      return undefined;
    case 'NONE':
      return { type: 'none' };
    case 'ANY': {
      const [only] = allowed;
      if (allowed.length === 1 && only !== undefined) return { type: 'tool', name: only };
      if (allowed.length > 1) warnings.push(restrictionWarning(path, 'required'));
      return { type: 'required' };
    }
    case 'AUTO':
    case 'VALIDATED':
      if (allowed.length > 0) warnings.push(restrictionWarning(path, 'auto'));
      return { type: 'auto' };
  }
}

function restrictionWarning(path: string, mode: string): TranslationWarning {
  return {
    feature: `${path}.allowedFunctionNames`,
    message: `'allowedFunctionNames' cannot restrict the tool set outside Gemini; using '${mode}' over all tools.`,
  };
}
