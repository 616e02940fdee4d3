/**
 * `GET /docs`: the OpenAPI document rendered to one self-contained HTML page on the server — no
 * script, no stylesheet or font from the internet, readable in any browser and by screen readers.
 */

type Json = Record<string, unknown>;

const escape = (text: unknown): string =>
  String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d232b;background:#fafbfc}
header,main{max-width:960px;margin:0 auto;padding:0 20px}
header{padding-top:24px}h1{margin:0 0 4px}h2{margin-top:36px;border-bottom:1px solid #d8dee4;padding-bottom:4px}
.op{background:#fff;border:1px solid #d8dee4;border-radius:6px;margin:10px 0;padding:10px 14px}
.op h3{margin:0;font-size:15px;font-weight:600}.path{font-family:ui-monospace,monospace}
.m{display:inline-block;min-width:58px;text-align:center;border-radius:4px;color:#fff;font:600 12px ui-monospace,monospace;padding:2px 6px;margin-right:8px}
.get{background:#1f6feb}.post{background:#1a7f37}.put{background:#9a6700}.patch{background:#8250df}.delete{background:#cf222e}
.muted{color:#57606a}table{border-collapse:collapse;margin-top:6px}td,th{text-align:left;padding:2px 10px 2px 0;vertical-align:top}
code{font-family:ui-monospace,monospace;background:#eff1f3;border-radius:3px;padding:0 3px}`;

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
  const rows = params.map((p) => `<tr><td><code>${escape(p['name'])}</code></td><td class="muted">${escape(p['in'])}</td><td>${escape(p['description'])}</td></tr>`).join('');
  return `<table aria-label="Parameters"><tr><th>Parameter</th><th>In</th><th>Description</th></tr>${rows}</table>`;
}

function responses(operation: Json): string {
  const codes = Object.keys((operation['responses'] as Json | undefined) ?? {});
  return `<div class="muted">Responses: ${codes.map((c) => `<code>${escape(c)}</code>`).join(' ')}</div>`;
}

export function renderDocs(document: Json): string {
  const info = document['info'] as Json;
  const schemes = ((document['components'] as Json)['securitySchemes'] ?? {}) as Json;
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document['paths'] as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = ((operation['tags'] as string[] | undefined) ?? ['Other'])[0]!;
      const html =
        `<section class="op" aria-label="${escape(method.toUpperCase())} ${escape(path)}">` +
        `<h3><span class="m ${escape(method)}">${escape(method.toUpperCase())}</span><span class="path">${escape(path)}</span></h3>` +
        `<div>${escape(operation['summary'])}</div><div class="muted">Auth: ${auth(operation, schemes)}</div>${parameters(operation)}${responses(operation)}</section>`;
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
