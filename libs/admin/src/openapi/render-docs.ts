/**
 * `GET /docs`: the OpenAPI document rendered to one self-contained HTML page on the server — no
 * script, no stylesheet or font from the internet, readable in any browser and by screen readers.
 * Each operation shows its parameters, its request body's fields and each success answer's fields
 * (render-schema.ts); nested objects open in place (`<details>`), so the page needs no script.
 */
import { escapeHtml as escape, prose, SchemaRenderer } from './render-schema';

type Json = Record<string, unknown>;

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d232b;background:#fafbfc}
header,main{max-width:960px;margin:0 auto;padding:0 20px}
header{padding-top:24px}h1{margin:0 0 4px}h2{margin-top:36px;border-bottom:1px solid #d8dee4;padding-bottom:4px}
.op{background:#fff;border:1px solid #d8dee4;border-radius:6px;margin:10px 0;padding:10px 14px}
.op h3{margin:0;font-size:15px;font-weight:600}.path{font-family:ui-monospace,monospace}
.m{display:inline-block;min-width:58px;text-align:center;border-radius:4px;color:#fff;font:600 12px ui-monospace,monospace;padding:2px 6px;margin-right:8px}
.get{background:#1f6feb}.post{background:#1a7f37}.put{background:#9a6700}.patch{background:#8250df}.delete{background:#cf222e}
.muted{color:#57606a}table{border-collapse:collapse;margin-top:6px}td,th{text-align:left;padding:2px 10px 2px 0;vertical-align:top}
code{font-family:ui-monospace,monospace;background:#eff1f3;border-radius:3px;padding:0 3px}
.body{margin-top:8px}.body>summary{cursor:pointer;font-weight:600}.body>summary .muted{font-weight:400}
ul.fields{list-style:none;margin:4px 0 4px 0;padding:0 0 0 14px;border-left:2px solid #e4e8ec}
.field{margin:2px 0}.f{display:flex;flex-wrap:wrap;gap:2px 10px;align-items:baseline;padding:1px 0}
details>summary.f{cursor:pointer;list-style-position:outside;margin-left:14px;display:list-item}
details>summary.f>span{margin-right:10px}
.f-type{color:#8250df;font:13px ui-monospace,monospace}.f-req{color:#cf222e;font-size:12px;font-weight:600}
.f-desc{color:#424a53}.f-enum,.f-default,.f-bounds,.f-cycle{color:#57606a;font-size:13px}.variant{margin:6px 0 0 14px;font-weight:600;color:#57606a}
.codes code{cursor:help}`;

function auth(operation: Json, schemes: Json): string {
  const security = operation['security'] as Json[] | undefined;
  if (!security || security.length === 0) return 'none';
  return security
    .flatMap((s) => Object.keys(s))
    .map((name) => {
      const scheme = (schemes[name] ?? {}) as Json;
      return scheme['type'] === 'http' ? `Authorization: Bearer (${escape(scheme['description'] ?? name)})` : `${escape(scheme['name'])} ${escape(scheme['in'])}`;
    })
    .join(' or ');
}

function parameters(operation: Json): string {
  const params = (operation['parameters'] as Json[] | undefined) ?? [];
  if (params.length === 0) return '';
  const rows = params.map((p) => `<tr><td><code>${escape(p['name'])}</code></td><td class="muted">${escape(p['in'])}</td><td>${prose(p['description'])}</td></tr>`).join('');
  return `<table aria-label="Parameters"><tr><th>Parameter</th><th>In</th><th>Description</th></tr>${rows}</table>`;
}

/** A body's JSON schema (or else its first media type's), with the media type named. */
function schemaOf(content: unknown): { type: string; schema: unknown } | undefined {
  if (typeof content !== 'object' || content === null) return undefined;
  const types = Object.entries(content as Record<string, Json>);
  const [type, media] = types.find(([t]) => t === 'application/json') ?? types[0] ?? [];
  return type && media ? { type, schema: media['schema'] } : undefined;
}

function requestBody(operation: Json, renderer: SchemaRenderer): string {
  const body = operation['requestBody'] as Json | undefined;
  const found = body && schemaOf(body['content']);
  if (!found) return '';
  const fields = renderer.fields(found.schema);
  const what = `${escape(renderer.typeOf(found.schema))}, ${escape(found.type)}${body['required'] ? ', required' : ''}`;
  return (
    `<details class="body" aria-label="Request body"><summary>Request body <span class="muted">${what}</span></summary>` +
    `${fields || '<div class="muted">Any JSON object (see the summary).</div>'}</details>`
  );
}

/** The status codes (each described in its tooltip), then the fields of each 2xx answer that has any. */
function responses(operation: Json, renderer: SchemaRenderer): string {
  const all = Object.entries((operation['responses'] as Record<string, Json> | undefined) ?? {});
  const codes = all.map(([code, r]) => `<code title="${escape(r['description'])}">${escape(code)}</code>`).join(' ');
  const answers = all
    .filter(([code]) => code.startsWith('2'))
    .map(([code, r]) => {
      const found = schemaOf(r['content']);
      const fields = found ? renderer.fields(found.schema) : '';
      if (!found || !fields) return '';
      return `<details class="body" aria-label="Response ${escape(code)}"><summary>Response ${escape(code)} <span class="muted">${escape(renderer.typeOf(found.schema))}, ${escape(found.type)}</span></summary>${fields}</details>`;
    })
    .join('');
  return `<div class="muted codes">Responses: ${codes}</div>${answers}`;
}

export function renderDocs(document: Json): string {
  const info = document['info'] as Json;
  const components = document['components'] as Json;
  const schemes = (components['securitySchemes'] ?? {}) as Json;
  const renderer = new SchemaRenderer((components['schemas'] ?? {}) as Json);
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document['paths'] as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = ((operation['tags'] as string[] | undefined) ?? ['Other'])[0]!;
      const html =
        `<section class="op" aria-label="${escape(method.toUpperCase())} ${escape(path)}">` +
        `<h3><span class="m ${escape(method)}">${escape(method.toUpperCase())}</span><span class="path">${escape(path)}</span></h3>` +
        `<div>${prose(operation['summary'])}</div><div class="muted">Auth: ${auth(operation, schemes)}</div>${parameters(operation)}${requestBody(operation, renderer)}${responses(operation, renderer)}</section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const nav = [...byTag.keys()].map((tag) => `<a href="#${escape(slug(tag))}">${escape(tag)}</a>`).join(' · ');
  const sections = [...byTag].map(([tag, ops]) => `<h2 id="${escape(slug(tag))}">${escape(tag)}</h2>${ops.join('')}`).join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escape(info['title'])} API reference</title><style>${STYLE}</style></head><body>` +
    `<header><h1>${escape(info['title'])} API reference</h1><div class="muted">Version ${escape(info['version'])} · OpenAPI ${escape(document['openapi'])} · <a href="/openapi.json">openapi.json</a></div>` +
    `<p>${escape(info['description'])}</p><nav aria-label="Sections">${nav}</nav></header><main>${sections}</main></body></html>`
  );
}

function slug(tag: string): string {
  return tag.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
