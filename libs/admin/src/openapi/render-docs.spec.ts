import { renderDocs } from './render-docs';

describe('renderDocs', () => {
  const document = {
    openapi: '3.1.0',
    info: { title: 'T', version: '1', description: 'd' },
    paths: {
      '/things': {
        post: {
          summary: 'Make a thing (`name` required)',
          tags: ['Things'],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } },
          responses: {
            '201': { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
            '400': { description: 'Bad name', content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } } } } } },
          },
        },
        get: { summary: 'List things', tags: ['Things'], responses: { '200': { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } } } },
      },
    },
    components: { securitySchemes: {}, schemas: { Thing: { type: 'object', properties: { id: { type: 'string' } } } } },
  };
  const html = renderDocs(document);
  const section = (label: string) => html.slice(html.indexOf(`aria-label="${label}"`), html.indexOf('</section>', html.indexOf(`aria-label="${label}"`)));

  it("shows an operation's request body and each success answer's fields, the error codes by their description", () => {
    const post = section('POST /things');
    expect(post).toContain('<div>Make a thing (<code>name</code> required)</div>');
    expect(post).toContain(
      '<details class="body" aria-label="Request body"><summary>Request body <span class="muted">object, application/json, required</span></summary>' +
        '<ul class="fields"><li class="field"><div class="f"><span class="f-name"><code>name</code></span><span class="f-type">string</span><span class="f-req">required</span></div></li></ul></details>',
    );
    expect(post).toContain('<div class="muted codes">Responses: <code title="Created">201</code> <code title="Bad name">400</code></div>');
    expect(post).toContain('<details class="body" aria-label="Response 201"><summary>Response 201 <span class="muted">Thing, application/json</span></summary>');
    expect(post).not.toContain('aria-label="Response 400"');
  });

  it('shows no field list for a body without fields', () => {
    const get = section('GET /things');
    expect(get).not.toContain('<details');
    expect(get).toContain('<div class="muted codes">Responses: <code title="OK">200</code></div>');
  });
});
