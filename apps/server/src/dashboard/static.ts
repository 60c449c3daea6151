import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Request, type RequestHandler, type Response, Router } from 'express';

/**
 * Where `pnpm --filter @spa/dashboard build` writes the app: DASHBOARD_DIR, else apps/dashboard/dist of the
 * repository this module runs from (found upwards: it runs from src/ under tsx and from the bundled dist/ alike).
 */
export function dashboardDist(env: Record<string, string | undefined> = process.env): string {
  if (env.DASHBOARD_DIR) return path.resolve(env.DASHBOARD_DIR);
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'apps', 'dashboard');
    if (existsSync(path.join(candidate, 'package.json'))) return path.join(candidate, 'dist');
    const parent = path.dirname(dir);
    if (parent === dir) return path.join(process.cwd(), 'apps', 'dashboard', 'dist');
    dir = parent;
  }
}

/**
 * The page's own rules: scripts, styles, fetches and images from this origin only, never framed (clickjacking of
 * the key and confirm buttons), no referrer leaving with a booking id in the URL.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Vite names every file under assets/ by its content hash: a new build makes new names, so they never go stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Every dashboard API answer: it may carry a key, a secret, an invitation URL or a customer's data. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * The compressed copies the dashboard's build writes beside each file (scripts/compress.mjs), in the order they
 * are offered when the browser takes both: brotli is the smaller.
 */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard has not been built</h1>
<p>Build it with <code>pnpm --filter @spa/dashboard build</code> (or run <code>pnpm start</code>, which builds it
when it is missing), then reload this page.</p></body></html>
`;

/**
 * The dashboard's built files at /dashboard, and index.html for every other page path so the app's router
 * resolves it. /dashboard/api/* is the JSON API: this router passes it on, so an unknown API path still gets the
 * JSON 404. A file-like path that does not exist is a plain 404, never index.html (a browser would run HTML as JS).
 */
export function dashboardStatic(dist: string = dashboardDist()): Router {
  const router = Router();
  const indexHtml = path.join(dist, 'index.html');
  const secured: RequestHandler = (req, res, next) => {
    if (isApiPath(req.path)) return next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    next();
  };
  router.use(secured);
  router.use((req, res, next) => {
    if (isApiPath(req.path)) return next();
    // The build's source maps stay on the server: they would hand out the app's whole source.
    if (req.path.endsWith('.map')) return void res.status(404).type('text/plain').send('Not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = fileOf(dist, req.path);
    if (!file || !statSync(file, { throwIfNoEntry: false })?.isFile()) return next();
    sendPrecompressed(req, res, file, isHashedAsset(dist, file) ? IMMUTABLE : 'no-cache', next);
  });
  router.use((req, res, next) => {
    if (isApiPath(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    if (!existsSync(indexHtml)) return notBuilt(res);
    if (path.posix.extname(req.path) !== '') return void res.status(404).type('text/plain').send('Not found\n');
    sendPrecompressed(req, res, indexHtml, 'no-cache', next);
  });
  return router;
}

/** The file a request path names inside dist, or undefined for a path that would leave it or cannot be decoded. */
function fileOf(dist: string, requestPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  // NUL, and dot files (none is the app's), are never served.
  if (decoded.includes('\0') || decoded.split('/').some((segment) => segment.startsWith('.'))) return undefined;
  const root = path.resolve(dist);
  const file = path.join(root, decoded);
  return file.startsWith(root + path.sep) && !file.endsWith(path.sep) ? file : undefined;
}

/**
 * Sends `file`, or its compressed copy in the best encoding the browser accepts (content negotiation on
 * Accept-Encoding, hence Vary), with the original's type; the copy is made once by the build, never per request.
 */
function sendPrecompressed(
  req: Request,
  res: Response,
  file: string,
  cacheControl: string,
  next: (e?: unknown) => void,
) {
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Vary', 'Accept-Encoding');
  const available = PRECOMPRESSED.filter((copy) => existsSync(file + copy.suffix));
  const chosen = available.length ? req.acceptsEncodings(available.map((copy) => copy.encoding)) : false;
  const copy = available.find((candidate) => candidate.encoding === chosen);
  if (!copy) return void res.sendFile(file, (error) => (error ? next(error) : undefined));
  res.type(path.extname(file));
  res.setHeader('Content-Encoding', copy.encoding);
  res.sendFile(file + copy.suffix, (error) => (error ? next(error) : undefined));
}

function isApiPath(requestPath: string): boolean {
  return requestPath === '/api' || requestPath.startsWith('/api/');
}

function isHashedAsset(dist: string, file: string): boolean {
  return path.relative(dist, file).startsWith(`assets${path.sep}`);
}

function notBuilt(res: Response): void {
  res.status(503).setHeader('Cache-Control', 'no-store').setHeader('Retry-After', '60');
  res.type('html').send(NOT_BUILT);
}
