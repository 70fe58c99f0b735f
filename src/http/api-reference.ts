import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { NotFoundError } from '../core/errors.ts';
import type { HttpRoute } from './request-state.ts';

/**
 * `GET /docs`: the interactive reference of the REST API, Swagger UI (`swagger-ui-dist`) rendering
 * `/v1/openapi.json`, its files served from the npm package (no CDN: the page works offline). "Authorize"
 * takes a token (bearer), and "Try it out" calls the API from the page. No token is needed to read it.
 */
export const DOCS_PATH = '/docs';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

function page(openApiUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Docs Platform API reference</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
</head>
<body>
<div id="reference" data-openapi="${openApiUrl}"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;
}

/** Started by the page (an external script: the page's policy allows no inline code). */
const INIT = `window.ui = SwaggerUIBundle({
  url: document.getElementById('reference').dataset.openapi,
  dom_id: '#reference',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  persistAuthorization: false,
  tryItOutEnabled: false,
  validatorUrl: null,
});
`;

/** The page (at `/docs` and `/docs/`) and its assets: static routes, public, counted as requests. */
export function apiReferenceRoutes(options: { openApiPath: string }): HttpRoute[] {
  // The package's folder, found without loading the package: its index runs the 1.7 MB browser bundle.
  const root = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, Buffer>();
  const read = (name: string) => {
    let file = files.get(name);
    if (!file) files.set(name, (file = readFileSync(path.join(root, name))));
    return file;
  };
  const html = page(options.openApiPath);
  const route = (routePath: string, handle: HttpRoute['handle']): HttpRoute => ({ path: routePath, methods: ['GET', 'HEAD'], door: 'static', access: 'public', handle });
  const showPage = () => new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  return [
    route(DOCS_PATH, showPage),
    route(`${DOCS_PATH}/`, showPage),
    route(`${DOCS_PATH}/{asset}`, ({ params }) => {
      if (params.asset === 'init.js') return new Response(INIT, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
      const type = ASSETS[params.asset];
      if (!type) throw new NotFoundError(`No route ${DOCS_PATH}/${params.asset}`);
      return new Response(new Uint8Array(read(params.asset)), { headers: { 'content-type': type, 'cache-control': 'public, max-age=3600' } });
    }),
  ];
}
