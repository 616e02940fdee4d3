import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Validators for the Responses objects and stream events the gateway writes, compiled from the
 * published Open Responses OpenAPI document (see open-responses/README.md). Nothing is copied out
 * of it: the stream event schemas are the ones its `POST /responses` lists for
 * `text/event-stream`, found by each schema's own `type` enum.
 */
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }> }>>;
  components: { schemas: Record<string, { properties?: { type?: { enum?: string[] } } }> };
}

const DOCUMENT_ID = 'open-responses';
const document = JSON.parse(readFileSync(join(__dirname, 'open-responses', 'openapi.json'), 'utf8')) as Document;

// The document is OpenAPI 3.1 (JSON Schema 2020-12) but uses only keywords draft-07 shares;
// its OpenAPI-only keywords (`discriminator`, `example`, `x-…`) are annotations, ignored here.
const ajv = new Ajv({ allErrors: true, unknownFormats: 'ignore', schemaId: 'auto' });
ajv.addSchema({ components: document.components }, DOCUMENT_ID);

function validatorFor(schemaName: string): Ajv.ValidateFunction {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${schemaName}`);
  if (!validate) throw new Error(`the Open Responses document has no schema ${schemaName}`);
  return validate;
}

function streamEventSchemas(): Map<string, string> {
  const content = document.paths['/responses']!['post']!.responses['200']!.content['text/event-stream']!;
  const refs = (content.schema['oneOf'] as Array<{ $ref: string }>).map((r) => r.$ref.split('/').pop()!);
  const byType = new Map<string, string>();
  for (const name of refs) for (const type of document.components.schemas[name]?.properties?.type?.enum ?? []) byType.set(type, name);
  return byType;
}

const EVENT_SCHEMAS = streamEventSchemas();

/** The schema's complaints about a value, one line each; empty when it conforms. */
function problems(validate: Ajv.ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.dataPath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** What is wrong with a Responses object (`ResponseResource`), as the published schema says. */
export function responseProblems(response: unknown): string[] {
  return problems(validatorFor('ResponseResource'), response);
}

/** What is wrong with one stream event; an event type the specification does not list is itself a problem. */
export function streamEventProblems(event: unknown): string[] {
  const type = (event as { type?: unknown } | null)?.type;
  const schema = typeof type === 'string' ? EVENT_SCHEMAS.get(type) : undefined;
  if (!schema) return [`event type ${JSON.stringify(type)} is not one the specification lists`];
  return problems(validatorFor(schema), event).map((p) => `${type}: ${p}`);
}
