import type { ToolDefinition } from '@rosetta/canonical';

/**
 * Namespaced tools (`{type: "namespace", name: "crm", tools: [...]}`) are flattened for protocols
 * without groups: `crm__lookup`. The Responses codecs split the name back by the request's tools.
 */
export const NAMESPACE_SEPARATOR = '__';

export function flatName(namespace: string | undefined, name: string): string {
  return namespace === undefined ? name : `${namespace}${NAMESPACE_SEPARATOR}${name}`;
}

/** How a tool the model called appears on the Responses wire. */
export interface WireToolName {
  name: string;
  namespace?: string;
  custom: boolean;
}

/** The request's tools by canonical name, to turn calls back into their Responses shape. */
export class ToolNames {
  private readonly byName = new Map<string, ToolDefinition>();

  constructor(tools: readonly ToolDefinition[] | undefined) {
    for (const tool of tools ?? []) this.byName.set(tool.name, tool);
  }

  wire(canonicalName: string): WireToolName {
    const tool = this.byName.get(canonicalName);
    const namespace = tool?.namespace?.name;
    const name = namespace !== undefined && canonicalName.startsWith(`${namespace}${NAMESPACE_SEPARATOR}`) ? canonicalName.slice(namespace.length + NAMESPACE_SEPARATOR.length) : canonicalName;
    return { name, namespace, custom: tool?.custom !== undefined };
  }
}

/** A custom tool's raw input from canonical arguments (`{"input": "…"}`), or the text itself. */
export function customInput(argumentsJson: string): string {
  try {
    const parsed = JSON.parse(argumentsJson) as unknown;
    if (parsed !== null && typeof parsed === 'object' && typeof (parsed as { input?: unknown }).input === 'string') return (parsed as { input: string }).input;
  } catch {
    // Not JSON: the model wrote the input directly.
  }
  return argumentsJson;
}

export function customArguments(input: string): string {
  return JSON.stringify({ input });
}
