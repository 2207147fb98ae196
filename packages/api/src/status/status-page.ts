import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, ServerRoute } from '@hapi/hapi';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** The page's own files (packages/api/status/, beside src/ and dist/) and the libraries it loads. */
const ASSETS: Readonly<Record<string, { readonly path: string; readonly type: string }>> = {
  'status.js': { path: pageFile('status.js'), type: 'text/javascript' },
  'charts.js': { path: pageFile('charts.js'), type: 'text/javascript' },
  'favicon.svg': { path: pageFile('favicon.svg'), type: 'image/svg+xml' },
  'status.css': { path: pageFile('status.css'), type: 'text/css' },
  // nes' client is a browser-ready UMD file: it sets `window.nes`.
  'nes.js': { path: require.resolve('@hapi/nes/lib/client.js'), type: 'text/javascript' },
  'uplot.js': { path: require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript' },
  'uplot.css': { path: require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css' },
};

function pageFile(name: string): string {
  return fileURLToPath(new URL(`../../status/${name}`, import.meta.url));
}

/** Read once: a few small files, the same for the node's whole run. */
const contents = new Map<string, Buffer>();
function content(path: string): Buffer {
  let buffer = contents.get(path);
  if (!buffer) contents.set(path, (buffer = readFileSync(path)));
  return buffer;
}

/** The status page's HTML. */
export function statusPageHtml(): Buffer {
  return content(pageFile('index.html'));
}

/** Whether a request to `/` comes from a browser (it asks for HTML before JSON). */
export function wantsHtml(request: Request): boolean {
  const accept: unknown = request.headers.accept;
  return typeof accept === 'string' && accept.includes('text/html');
}

export function servePage(h: ResponseToolkit) {
  return h.response(statusPageHtml()).type('text/html; charset=utf-8');
}

function serveAsset(h: ResponseToolkit, asset: { readonly path: string; readonly type: string }) {
  return h.response(content(asset.path)).type(`${asset.type}; charset=utf-8`);
}

/**
 * GET /status and its assets under /status/assets/: the node's status page (`/` serves the same
 * page to browsers, see rootRoutes). `/favicon.ico` is the page's icon, for the clients that ask
 * there without reading the page's link.
 */
export function statusPageRoutes(): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/favicon.ico',
      options: { description: 'The status page’s icon (SVG)', tags: ['status'] },
      handler: (_request, h) => serveAsset(h, ASSETS['favicon.svg'] as (typeof ASSETS)[string]),
    },
    {
      method: 'GET',
      path: '/status',
      options: { description: 'The status page (HTML)', tags: ['status'] },
      handler: (_request, h) => servePage(h),
    },
    {
      method: 'GET',
      path: '/status/assets/{file}',
      options: { description: 'Scripts and styles of the status page', tags: ['status'] },
      handler: (request, h) => {
        const asset = Object.hasOwn(ASSETS, request.params.file as string)
          ? ASSETS[request.params.file as string]
          : undefined;
        if (!asset) throw Boom.notFound(`status/assets/${request.params.file as string}`);
        return serveAsset(h, asset);
      },
    },
  ];
}
