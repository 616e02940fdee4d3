import { Controller, Get, Param, Res } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { DashboardFiles } from './dashboard-files';

interface Reply {
  status(code: number): Reply;
  setHeader(name: string, value: string): unknown;
  end(body?: Buffer | string): void;
}

/**
 * Nothing from another origin: scripts and styles are the bundle's own, calls go to this origin.
 * Inline styles are allowed for the style attributes the chart library sets.
 */
const POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * `GET /dashboard`: the admin dashboard, a single page built by `npm run build`. Its own routes
 * (`/dashboard/keys`, …) answer the same page; a missing asset is a 404. The page holds no
 * secret, so it is served without a session; everything it shows comes from the admin API.
 */
@Public()
@Controller('dashboard')
export class DashboardController {
  private readonly files = new DashboardFiles();

  @Get()
  page(@Res() res: Reply): void {
    this.send(res, 'index.html');
  }

  @Get('*path')
  asset(@Param('path') path: string | string[], @Res() res: Reply): void {
    const name = Array.isArray(path) ? path.join('/') : path;
    // Client-side routes have no file extension; anything with one is a file or nothing.
    this.send(res, /\.[a-z0-9]+$/i.test(name) ? name : 'index.html');
  }

  private send(res: Reply, name: string): void {
    const file = this.files.get(name);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    if (file === null) {
      res.status(503).setHeader('content-type', 'text/plain; charset=utf-8');
      return res.end('The dashboard is not built: run `npm run build` (npm start builds it when needed).\n');
    }
    if (file === undefined) {
      res.status(404).setHeader('content-type', 'text/plain; charset=utf-8');
      return res.end(`No dashboard file '${name.slice(0, 200)}'\n`);
    }
    res.status(200);
    res.setHeader('content-type', file.type);
    res.setHeader('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (file.type.startsWith('text/html')) {
      res.setHeader('content-security-policy', POLICY);
      res.setHeader('x-frame-options', 'DENY');
    }
    res.end(file.body);
  }
}
