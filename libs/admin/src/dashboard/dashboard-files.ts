import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

export interface DashboardFile {
  body: Buffer;
  type: string;
  /** Vite names assets by content hash: they never change under the same name. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The built dashboard (`npm run build` → dist/apps/dashboard), read once into memory: a few files,
 * tens of kilobytes. Found beside the compiled code (dist/ is the tree root when compiled; the
 * repository is under ts-jest, where dist/apps/dashboard is looked for too).
 */
export class DashboardFiles {
  private files?: Map<string, DashboardFile> | null;

  constructor(private readonly roots: string[] = defaultRoots()) {}

  /** `index.html` for the page and its client-side routes; `assets/…` for scripts and styles. */
  get(path: string): DashboardFile | undefined | null {
    const files = this.load();
    if (files === null) return null;
    return files.get(path);
  }

  private load(): Map<string, DashboardFile> | null {
    if (this.files !== undefined) return this.files;
    const root = this.roots.find((dir) => existsSync(join(dir, 'index.html')) && existsSync(join(dir, 'assets')));
    this.files = root === undefined ? null : new Map(walk(root).map((file) => [relative(root, file).split(sep).join('/'), read(file)]));
    return this.files;
  }
}

function defaultRoots(): string[] {
  const tree = join(__dirname, '..', '..', '..', '..');
  return [join(tree, 'apps', 'dashboard'), join(tree, 'dist', 'apps', 'dashboard')];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function read(file: string): DashboardFile {
  return { body: readFileSync(file), type: TYPES[extname(file)] ?? 'application/octet-stream', immutable: file.includes(`${sep}assets${sep}`) };
}
