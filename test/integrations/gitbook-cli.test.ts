// GitBook's own CLI (`gitbook` of @gitbook/cli 0.25.1) pointed at this server, as teams use it to
// publish OpenAPI specs and integrations: whoami, openapi publish (a file and a URL), publish of an
// integration, unpublish. The CLI is installed for the test with --ignore-scripts (its postinstall
// downloads a tunnelling binary used only by `gitbook dev`); it goes over the wire to a 127.0.0.1 listener.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useClientServer } from '../support/client-server.ts';
import { REPO_ROOT, tempDir } from '../support/server-process.ts';

const CLI_VERSION = '0.25.1';
/** Kept between runs on one machine (node_modules/.cache): a second run does not install again. */
const CLI_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', `gitbook-cli-${CLI_VERSION}`);
const CLI = path.join(CLI_DIR, 'node_modules', '@gitbook', 'cli', 'dist', 'cli.js');

const s = useClientServer();
const work = tempDir('dp-gitbook-cli-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  if (existsSync(CLI)) return;
  mkdirSync(CLI_DIR, { recursive: true });
  await promisify(execFile)('npm', ['install', '--prefix', CLI_DIR, '--ignore-scripts', '--no-audit', '--no-fund', `@gitbook/cli@${CLI_VERSION}`], {
    cwd: CLI_DIR,
    timeout: 240_000,
  });
}, 300_000);

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `gitbook …` with the server's endpoint and a token (and no config file of the machine's). */
function gitbook(args: string[], token: string, options: { cwd?: string; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? work,
      env: { PATH: process.env.PATH, HOME: work, XDG_CONFIG_HOME: path.join(work, '.config'), GITBOOK_ENDPOINT: s.endpoint, GITBOOK_TOKEN: token, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

const PETSTORE_YAML = `openapi: 3.0.3
info:
  title: Pet store
  version: 1.0.0
paths:
  /pets:
    get:
      summary: List pets
      responses:
        '200':
          description: OK
`;

describe(`GitBook's CLI ${CLI_VERSION} against this server`, () => {
  it('whoami, openapi publish (a file, a URL), publish and unpublish an integration; errors read well', { timeout: 120_000 }, async () => {
    const ada = await s.newUser('Ada Lovelace');
    const org = (await ada.api.orgs.createOrganization({ title: 'Publishers' })).data;
    const db = s.store.database.prisma;

    const whoami = await gitbook(['whoami'], ada.token);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toContain('Ada Lovelace');
    expect(whoami.stdout).toContain(ada.id);

    writeFileSync(path.join(work, 'petstore.yaml'), PETSTORE_YAML);
    const fromFile = await gitbook(['openapi', 'publish', '--spec', 'petstore', '--organization', org.id, './petstore.yaml'], ada.token);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toContain(`/o/${org.id}/openapi/petstore`);
    const spec = await db.openAPISpec.findFirstOrThrow({ where: { organizationId: org.id, slug: 'petstore' }, include: { source: true } });
    expect(spec.source?.text).toBe(PETSTORE_YAML);
    expect(spec.processingState).toBe('pending');
    const fromUrl = await gitbook(['openapi', 'publish', '--spec', 'petstore', '--organization', org.id, 'https://example.com/openapi.json'], ada.token);
    expect(fromUrl.code, fromUrl.stderr).toBe(0);
    expect(await db.openAPISpec.findFirstOrThrow({ where: { organizationId: org.id, slug: 'petstore' } })).toMatchObject({ sourceUrl: 'https://example.com/openapi.json', sourceGeneration: 1 });

    const project = path.join(work, 'my-integration');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    writeFileSync(path.join(project, 'src', 'index.js'), 'export default { async fetch() { return new Response("hello from the integration"); } };\n');
    writeFileSync(
      path.join(project, 'gitbook-manifest.yaml'),
      `name: cli-integration\ntitle: CLI integration\ndescription: Published by the CLI\nscript: ./src/index.js\nscopes:\n  - space:content:read\ncategories:\n  - other\nvisibility: public\norganization: ${org.id}\n`,
    );
    const published = await gitbook(['publish'], ada.token, { cwd: project });
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toContain('cli-integration');
    expect(published.stdout).toContain(`${s.endpoint}/integrations/cli-integration`);
    const integration = await db.integration.findUniqueOrThrow({ where: { name: 'cli-integration' } });
    expect(integration).toMatchObject({ title: 'CLI integration', runtime: 'v2', version: 1, visibility: 'public', scopes: ['space:content:read'], organizationId: org.id });
    expect(integration.script).toContain('hello from the integration');
    const again = await gitbook(['publish'], ada.token, { cwd: project });
    expect(again.code, again.stderr).toBe(0);
    expect((await db.integration.findUniqueOrThrow({ where: { name: 'cli-integration' } })).version).toBe(2);

    // A refusal reads well: "GitBook API failed with [status] url: <message>".
    writeFileSync(path.join(project, 'gitbook-manifest.yaml'), `name: cli-integration\ntitle: X\nscript: ./src/index.js\nscopes: []\norganization: ${org.id}\n`);
    const refused = await gitbook(['publish'], ada.token, { cwd: project });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/GitBook API failed with \[400\] .*Invalid "title"/);

    const unpublished = await gitbook(['unpublish', 'cli-integration'], ada.token, { input: 'y\n' });
    expect(unpublished.code, unpublished.stderr).toBe(0);
    expect(await db.integration.findUnique({ where: { name: 'cli-integration' } })).toBeNull();
  });
});
