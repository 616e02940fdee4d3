import { startSimulator, type RunningSimulator } from './simulator';

const AUTH = { authorization: 'Bearer sk-recorder', 'content-type': 'application/json' };

async function chat(sim: RunningSimulator, content: string, path = '/v1/chat/completions'): Promise<Response> {
  return fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] }),
  });
}

async function control(sim: RunningSimulator, method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  return fetch(`${sim.url}/_sim/${path}`, init);
}

async function contentOf(response: Response): Promise<string> {
  return ((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content ?? '';
}

describe('control API and recorder', () => {
  let sim: RunningSimulator;

  beforeEach(async () => {
    sim = await startSimulator();
  });
  afterEach(async () => {
    await sim.close();
  });

  it('reports health', async () => {
    const response = await control(sim, 'GET', 'health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('records protocol requests, including rejected ones, but not control calls', async () => {
    const ok = await chat(sim, 'hello recorder');
    expect(ok.status).toBe(200);
    const requestId = ok.headers.get('x-request-id');
    await fetch(`${sim.url}/chat/completions?trace=1`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'not json' });
    await control(sim, 'GET', 'health');

    const recorded = sim.requests();
    expect(recorded).toEqual([
      {
        id: requestId,
        protocol: 'openai',
        method: 'POST',
        path: '/v1/chat/completions',
        headers: expect.objectContaining({ authorization: 'Bearer sk-recorder', 'content-type': 'application/json' }),
        body: { model: 'm', messages: [{ role: 'user', content: 'hello recorder' }] },
        receivedAt: expect.any(String),
      },
      {
        id: expect.stringMatching(/^req_sim_/),
        protocol: 'openai',
        method: 'POST',
        path: '/chat/completions?trace=1',
        headers: expect.not.objectContaining({ authorization: expect.anything() }),
        body: 'not json',
        receivedAt: expect.any(String),
      },
    ]);
    expect(Number.isNaN(Date.parse(recorded[0]?.receivedAt ?? ''))).toBe(false);
    expect(await (await control(sim, 'GET', 'requests')).json()).toEqual(recorded);
  });

  it('filters recorded requests by a raw-body substring and clears them', async () => {
    await chat(sim, 'alpha marker-aa1');
    await chat(sim, 'beta marker-bb2');
    const filtered = (await (await control(sim, 'GET', 'requests?match=marker-bb2')).json()) as Array<{ body: unknown }>;
    expect(filtered.map((entry) => entry.body)).toEqual([{ model: 'm', messages: [{ role: 'user', content: 'beta marker-bb2' }] }]);
    expect((await control(sim, 'DELETE', 'requests')).status).toBe(200);
    expect(await (await control(sim, 'GET', 'requests')).json()).toEqual([]);
  });

  it('keeps only the newest requests when the recorder is full', async () => {
    const small = await startSimulator({ maxRecordedRequests: 2 });
    try {
      for (const content of ['first', 'second', 'third']) await chat(small, content);
      const kept = small.requests().map((entry) => JSON.stringify(entry.body));
      expect(kept).toEqual([expect.stringContaining('second'), expect.stringContaining('third')]);
    } finally {
      await small.close();
    }
  });

  it('registers scripts over HTTP; newest match wins and `times` runs out', async () => {
    const first = await control(sim, 'POST', 'scripts', { match: 'marker-cc3', reply: { text: 'older' } });
    expect(first.status).toBe(201);
    const second = await control(sim, 'POST', 'scripts', { match: 'marker-cc3', reply: { text: 'newer' }, times: 1 });
    expect(second.status).toBe(201);
    expect(await contentOf(await chat(sim, 'x marker-cc3'))).toBe('newer');
    expect(await contentOf(await chat(sim, 'x marker-cc3'))).toBe('older');
    expect(await contentOf(await chat(sim, 'x marker-cc3'))).toBe('older');
    expect(await contentOf(await chat(sim, 'no marker'))).toBe('Simulated reply from m: no marker');
  });

  it('does not let one marker take another request’s script', async () => {
    sim.script({ match: 'marker-one', reply: { text: 'for one' } });
    sim.script({ match: 'marker-two', reply: { text: 'for two' } });
    const [one, two] = await Promise.all([chat(sim, 'marker-one'), chat(sim, 'marker-two')]);
    expect(await contentOf(one)).toBe('for one');
    expect(await contentOf(two)).toBe('for two');
  });

  it('rejects invalid scripts with 400 and clears scripts on DELETE', async () => {
    const bad = await control(sim, 'POST', 'scripts', { match: 'm1', reply: { finish: 'done' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: { message: 'script.reply.finish must be one of stop, length, tool_calls, content_filter, stop_sequence', type: 'simulator_control_error' },
    });
    expect((await control(sim, 'POST', 'scripts', '{oops')).status).toBe(400);
    await control(sim, 'POST', 'scripts', { match: 'marker-dd4', reply: { text: 'scripted' } });
    expect((await control(sim, 'DELETE', 'scripts')).status).toBe(200);
    expect(await contentOf(await chat(sim, 'marker-dd4'))).toBe('Simulated reply from m: marker-dd4');
  });

  it('reset() forgets requests and scripts; unknown control routes are 404', async () => {
    sim.script({ match: 'marker-ee5', reply: { text: 'scripted' } });
    await chat(sim, 'hello');
    sim.reset();
    expect(sim.requests()).toEqual([]);
    expect(await contentOf(await chat(sim, 'marker-ee5'))).toBe('Simulated reply from m: marker-ee5');
    expect((await control(sim, 'GET', 'nope')).status).toBe(404);
  });
});
