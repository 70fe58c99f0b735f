/**
 * Checks a REST response against our own OpenAPI document (/v1/openapi.json): the status must be one the
 * operation documents, and the body must validate against that status's schema (Ajv). The harness calls
 * it on every REST response of the in-process tests (test/support/harness.ts), so the document has to
 * describe what every test sees the server answer — not only what one test checks.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Route {
  method: string;
  path: string;
  pattern: RegExp;
  literals: number;
}

export class OwnOpenApi {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    for (const format of ['int32', 'int64', 'float', 'double']) this.ajv.addFormat(format, true);
    this.ajv.addSchema({ ...document, $id: 'own' }, 'own');
    this.routes = Object.entries<Json>(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => ({
        method: method.toUpperCase(),
        path,
        pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
        literals: path.split('/').filter((segment) => segment && !segment.startsWith('{')).length,
      })),
    );
    // A path with more literal segments wins over one with parameters where both match.
    this.routes.sort((a, b) => b.literals - a.literals);
  }

  /** Problems with a response to `method path` (path relative to the server URL), or [] when it conforms. */
  check(method: string, path: string, status: number, body: unknown): string[] {
    const route = this.routes.find((r) => r.method === method && r.pattern.test(path));
    if (!route) return []; // not a documented route: the 404 tests cover those
    const responses = this.document.paths[route.path][method.toLowerCase()].responses;
    const response = responses[String(status)];
    const where = `${method} ${route.path} → ${status}`;
    if (!response) {
      if (status >= 500) return []; // a server failure is its test's concern
      return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    }
    const resolved = response.$ref ? this.resolve(response.$ref) : response;
    const schema = resolved.content?.['application/json']?.schema;
    if (!schema) return body === undefined || body === '' ? [] : [`${where}: documented without a body, answered one`];
    const key = `${route.path} ${method} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      const pointer = response.$ref
        ? `${response.$ref}/content/application~1json/schema`
        : `#/paths/${route.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
      validate = this.ajv.compile({ $ref: `own${pointer}` });
      this.validators.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${where}: ${e.instancePath || '(body)'} ${e.message} ${e.params ? JSON.stringify(e.params) : ''}`);
  }

  private resolve(ref: string): Json {
    return ref
      .slice(2)
      .split('/')
      .reduce((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], this.document);
  }
}
