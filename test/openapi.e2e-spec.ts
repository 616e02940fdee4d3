import { documentedRoutes } from '@rosetta/admin';
import Ajv from 'ajv';
import { TEST_ADMIN_TOKEN } from './support/gateway-process';
import { startStack, type Stack } from './support/stack';

/** `/openapi.json` and `/docs` from a running gateway, and every documented operation answered by a real route. */
describe('API reference', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('serves OpenAPI 3.1 at /openapi.json without a key', async () => {
    const res = await fetch(`${stack.gateway.url}/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as any;
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/chat/completions', '/v1/messages', '/v1beta/models/{model}:generateContent', '/admin/keys', '/admin/usage']));
    expect(document.paths['/admin/keys'].post.security).toEqual([{ adminToken: [] }, { dashboardSession: [] }]);
  });

  it('renders /docs as one self-contained page: nothing loaded from another origin, no script', async () => {
    const res = await fetch(`${stack.gateway.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<h1>Rosetta API reference</h1>');
    expect(html).toContain('/v1/chat/completions');
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/i);
  });

  it('answers every documented operation from its handler (never "Unknown route" or "Unknown method")', async () => {
    const fill: Record<string, string> = { id: 'no-such-id', model: 'rosetta/gemini-2.5-flash', name: 'no-such-plan', slug: 'no-such-provider', response_id: 'resp_no-such-response' };
    for (const { method, path, operation } of documentedRoutes()) {
      const url = path.replace(/\{(\w+)\}/g, (_, p: string) => (path.startsWith('/admin/models') ? 'rosetta/no-such-model' : fill[p]!));
      // With credentials, so the request gets past authentication to the handler; bodies are
      // empty, so nothing is created or called upstream (a 400 names the missing field).
      const admin = JSON.stringify(operation.security).includes('adminToken');
      const token = admin ? TEST_ADMIN_TOKEN : stack.key;
      const res = await fetch(`${stack.gateway.url}${url}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: method === 'GET' || method === 'DELETE' ? undefined : '{}' });
      const text = await res.text();
      const route = `${method} ${path}`;
      expect({ route, unknown: /Unknown (route|method)/.test(text), status: res.status < 500 && res.status !== 401 }).toEqual({ route, unknown: false, status: true });
    }
  });

  it('describes the model record with the types it is served with, before and after traffic, chat and embedding models alike', async () => {
    const document = (await (await fetch(`${stack.gateway.url}/openapi.json`)).json()) as any;
    expect(document.paths['/v1/models/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ModelRecord' });
    const ajv = new Ajv({ allErrors: true, unknownFormats: 'ignore' });
    ajv.addSchema({ components: document.components }, 'rosetta');
    const validate = ajv.getSchema('rosetta#/components/schemas/ModelRecord')!;
    const record = async (id: string) => (await fetch(`${stack.gateway.url}/v1/models/${id}`, { headers: { authorization: `Bearer ${stack.key}` } })).json();
    const problems = (value: unknown) => (validate(value) ? [] : validate.errors!.map((e) => `${e.dataPath} ${e.message}`));
    // No calls yet: the endpoint's uptime is still a string, as the interface types it.
    const idle = (await record('rosetta/gpt-4o-mini')) as any;
    expect({ problems: problems(idle), uptime: idle.providers[0].uptime_last_30m }).toEqual({ problems: [], uptime: '100.00' });
    const chat = await fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(200);
    const served = [await record('rosetta/gpt-4o-mini'), await record('rosetta/text-embedding-3-small'), await record(String(idle.id))];
    expect(served.map(problems)).toEqual([[], [], []]);
  });

  it("describes each chat dialect's answer with the fields it is served with, and /docs shows them", async () => {
    const document = (await (await fetch(`${stack.gateway.url}/openapi.json`)).json()) as any;
    const ajv = new Ajv({ allErrors: true, unknownFormats: 'ignore' });
    ajv.addSchema({ components: document.components }, 'rosetta');
    const answerOf = (path: string) => document.paths[path].post.responses['200'].content['application/json'].schema;
    expect([answerOf('/v1/chat/completions'), answerOf('/v1/messages'), answerOf('/v1beta/models/{model}:generateContent')]).toEqual([
      { $ref: '#/components/schemas/OpenAIChatCompletion' },
      { $ref: '#/components/schemas/AnthropicMessage' },
      { $ref: '#/components/schemas/GeminiResponse' },
    ]);
    const call = async (path: string, body: unknown) => {
      const res = await fetch(`${stack.gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      return res.json();
    };
    const problems = (schema: string, value: unknown) => {
      const validate = ajv.getSchema(`rosetta#/components/schemas/${schema}`)!;
      return validate(value) ? [] : validate.errors!.map((e) => `${e.dataPath} ${e.message}`);
    };
    const messages = [{ role: 'user', content: 'hi' }];
    const openai = await call('/v1/chat/completions', { model: 'rosetta/gpt-4o-mini', messages });
    const anthropic = await call('/v1/messages', { model: 'rosetta/claude-haiku-4-5', max_tokens: 64, messages });
    const gemini = await call('/v1beta/models/rosetta/gemini-2.5-flash:generateContent', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect([problems('OpenAIChatCompletion', openai), problems('AnthropicMessage', anthropic), problems('GeminiResponse', gemini)]).toEqual([[], [], []]);

    const html = await (await fetch(`${stack.gateway.url}/docs`)).text();
    const chat = html.slice(html.indexOf('aria-label="POST /v1/chat/completions"'), html.indexOf('</section>', html.indexOf('aria-label="POST /v1/chat/completions"')));
    expect(chat).toContain('<span class="f-name"><code>messages</code></span><span class="f-type">array of OpenAIChatMessage</span><span class="f-req">required</span>');
    expect(chat).toContain('<span class="f-name"><code>choices</code></span><span class="f-type">array of object</span><span class="f-req">required</span>');
  });
});
