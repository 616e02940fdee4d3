/**
 * The OpenAPI document against the routes the gateway really serves: every data-plane route
 * (DATA_PLANE_ROUTES) and every controller route (found by walking AppModule's imports, as Nest
 * does) is documented, and every documented operation is served by one. A route added or removed
 * without the document fails here.
 */
import 'reflect-metadata';
import { RequestMethod, type DynamicModule, type Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { documentedRoutes, openApiDocument } from '@rosetta/admin';
import { DATA_PLANE_ROUTES } from '@rosetta/dialects';
import { parseGeminiModelPath } from '@rosetta/protocols/gemini';
import { createLogger, loadConfig } from '@rosetta/platform';
import { AppModule } from './app.module';

type ModuleRef = Type | DynamicModule | Promise<DynamicModule> | { forwardRef: () => Type };

function controllersOf(root: ModuleRef, seen = new Set<unknown>()): Type[] {
  if (root instanceof Promise || 'forwardRef' in root) throw new Error('async or forward-ref module: teach this walk about it');
  const dynamic = 'module' in root ? root : undefined;
  const cls = dynamic ? dynamic.module : (root as Type);
  const key = dynamic ?? cls;
  if (seen.has(key)) return [];
  seen.add(key);
  const imports: ModuleRef[] = [...(Reflect.getMetadata(MODULE_METADATA.IMPORTS, cls) ?? []), ...(dynamic?.imports ?? [])];
  const own: Type[] = [...(Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, cls) ?? []), ...((dynamic?.controllers as Type[] | undefined) ?? [])];
  return [...own, ...imports.flatMap((m) => controllersOf(m, seen))];
}

function join(...parts: string[]): string {
  const path = `/${parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
  // Nest's ':id' and wildcard '*name' both become an OpenAPI template.
  return path.replace(/[:*]([A-Za-z_]+)/g, '{$1}');
}

function registeredRoutes(): string[] {
  const routes = new Set<string>(DATA_PLANE_ROUTES.map((r) => `${r.method} ${r.pattern}`));
  for (const controller of new Set(controllersOf(AppModule.forRoot(loadConfig({}), createLogger('silent'))))) {
    const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      if (path === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      routes.add(`${method} ${join(base, path)}`);
    }
  }
  return [...routes].sort();
}

describe('the OpenAPI document and the real routes', () => {
  const registered = registeredRoutes();
  const documented = documentedRoutes();

  it('finds the routes (the walk works)', () => {
    expect(registered).toEqual(expect.arrayContaining(['POST /v1/chat/completions', 'POST /admin/keys', 'GET /healthz', 'GET /openapi.json']));
  });

  it('documents every route the gateway serves', () => {
    const served = new Set(documented.map((d) => d.route));
    expect(registered.filter((route) => !served.has(route))).toEqual([]);
  });

  it('documents no route the gateway does not serve', () => {
    expect(documented.filter((d) => !registered.includes(d.route)).map((d) => `${d.method} ${d.path}`)).toEqual([]);
  });

  it('documents only Gemini methods the wildcard route accepts, and every one it accepts', () => {
    // The wildcard `POST /v1beta/models/{path}` serves them all, so the route walk cannot tell them apart.
    const documentedMethods = documented
      .filter((d) => d.route === 'POST /v1beta/models/{path}')
      .map((d) => parseGeminiModelPath(d.path.slice('/v1beta/models/'.length).replace('{model}', 'rosetta/gemini-2.5-flash')).method);
    expect(documentedMethods.sort()).toEqual(['batchEmbedContents', 'countTokens', 'embedContent', 'generateContent', 'streamGenerateContent']);
    expect(() => parseGeminiModelPath('rosetta/gemini-2.5-flash:predict')).toThrow(/Unknown method/);
  });

  it('is OpenAPI 3.1 with the interface version, and every operation has a summary, a tag and responses', () => {
    const document = openApiDocument('rosetta');
    expect(document).toMatchObject({ openapi: '3.1.0', info: { version: '1.0.0' } });
    for (const { operation } of documented) {
      expect(operation.summary.length).toBeGreaterThan(0);
      expect(operation.tags.length).toBeGreaterThan(0);
      expect(Object.keys(operation['responses'] as object).length).toBeGreaterThan(0);
    }
  });

  it('follows MODEL_NAMESPACE', () => {
    expect(JSON.stringify(openApiDocument('acme'))).toContain('acme/auto');
    expect(JSON.stringify(openApiDocument('acme'))).not.toContain('rosetta/');
  });
});
