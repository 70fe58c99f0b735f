// docs/getting-started.md walks a new user from `npm start` to a published site with curl (issue 39:
// "without reading source code"). This runs its commands as written: bash expands each one (quotes and
// variables as a shell would), the request it makes is sent to the app, and the values the comments name
// (`# ORG=<id>`) are taken from the answers for the commands that follow.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../factories.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();
const DOC = readFileSync(path.join(import.meta.dirname, '../../docs/getting-started.md'), 'utf8');

/** The `sh` blocks after "## 2.", as commands (continuation lines joined), with their comments. */
function commands(): { command: string; capture: { name: string; from: string } | null }[] {
  const from = DOC.indexOf('## 2.');
  const blocks = [...DOC.slice(from).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const lines = blocks.join('').replace(/\\\n\s*/g, '').split('\n').filter((line) => line.trim() !== '');
  return lines.map((line) => {
    const comment = /\s+#\s+(\w+)=<([\w.]+)>\s*$/.exec(line);
    return { command: comment ? line.slice(0, comment.index) : line.replace(/\s+#.*$/, ''), capture: comment ? { name: comment[1], from: comment[2] } : null };
  });
}

/** argv of a command line, as bash expands it with these variables. */
function expand(command: string, env: Record<string, string>): string[] {
  const out = execFileSync('bash', ['-c', `printargs() { printf '%s\\0' "$@"; }; ${command.replace(/^curl\b/, 'printargs')}`], { env: { ...env, PATH: process.env.PATH } });
  return out.toString('utf8').split('\0').slice(0, -1);
}

describe('docs/getting-started.md', () => {
  it('its commands, run as written, make an organization, a space, pages, a merge and a published site a browser reads', async () => {
    const ada = await buildUser(h, 'Ada');
    const env: Record<string, string> = {};
    let answers = 0;
    for (const { command, capture } of commands()) {
      const assignment = /^(\w+)=(.*)$/.exec(command);
      if (assignment) {
        env[assignment[1]] = assignment[1] === 'TOKEN' ? ada.token : expand(`curl ${assignment[2]}`, env)[0];
        continue;
      }
      expect(command.startsWith('curl '), command).toBe(true);
      const argv = expand(command, env);
      let method = 'GET';
      let url = '';
      let body: string | undefined;
      const headers: Record<string, string> = {};
      for (let i = 0; i < argv.length; i++) {
        if (argv[i] === '-s') continue;
        if (argv[i] === '-X') method = argv[++i];
        else if (argv[i] === '-H') {
          const [name, ...value] = argv[++i].split(':');
          headers[name.trim()] = value.join(':').trim();
        } else if (argv[i] === '-d') {
          body = argv[++i];
          if (method === 'GET') method = 'POST';
        } else url = argv[i];
      }
      if (!URL.canParse(url)) throw new Error(`no URL in ${JSON.stringify(argv)} (from ${command})`);
      const res = await h.app.fetch(url, { method, headers, body });
      const text = await res.text();
      expect(res.status, `${command}\n→ ${res.status} ${text.slice(0, 300)}`).toBeLessThan(300);
      answers++;
      if (capture) {
        const json = JSON.parse(text);
        env[capture.name] = capture.from.split('.').reduce((value: any, key) => value?.[key], json);
        expect(env[capture.name], `${capture.name} from ${command}`).toEqual(expect.any(String));
      }
    }
    expect(answers).toBe(10);
    // What the page promises a browser shows.
    const page = await h.app.fetch(env.PUBLISHED);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<h1 class="page-title">Welcome</h1>');
    expect(html).toContain('<h2 class="tree-heading">Getting started</h2>');
    const install = await h.app.fetch(`${env.PUBLISHED.replace(/\/$/, '')}/getting-started/install`);
    expect(await install.text()).toContain('Acme needs Node.js 20.');
  });
});
