// Issue 40: repository URLs are user-given. Without FETCH_ALLOW_PRIVATE, an address written in the URL
// that is loopback, private, link-local or the metadata service is a 400 naming `url` at once (a name
// that resolves to one fails the run: git-remote.test.ts).
import { describe, expect, it } from 'vitest';
import { restError } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';
import { buildOrganization, buildSpace } from '../factories.ts';

const h = useHarness();

describe('Git Sync refuses private addresses written in the URL', () => {
  it('loopback, private, link-local, metadata, localhost: 400 naming url; a public name is queued', async () => {
    const { admin, organizationId } = await buildOrganization(h);
    const space = (await buildSpace(admin, organizationId)).id;
    for (const url of ['http://127.0.0.1:8080/docs.git', 'http://10.0.0.5/docs.git', 'http://169.254.169.254/latest/', 'http://[::1]/docs.git', 'http://localhost:3000/docs.git', 'https://user:pw@192.168.1.2/docs.git']) {
      const message = restError(await admin.rest('POST', `/v1/spaces/${space}/git/import`, { url, ref: 'main' }), 400, 'url');
      expect(message).not.toContain('pw');
    }
    restError(await admin.rest('POST', `/v1/spaces/${space}/git/export`, { url: 'http://127.0.0.1/docs.git', ref: 'main', commitMessage: 'x' }), 400, 'url');
    expect((await admin.rest('POST', `/v1/spaces/${space}/git/import`, { url: 'https://git.example.test/acme/docs.git', ref: 'main' })).status).toBe(204);
  });
});
