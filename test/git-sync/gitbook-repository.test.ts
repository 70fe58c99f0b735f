// Issue 40 ("The format"): a repository in GitBook's Git Sync format read into content changes — the
// groundwork of Git Sync, tested on files in memory and by writing the changes into a space.
import { describe, expect, it } from 'vitest';
import { readGitBookRepository, RepositoryFormatError, type RepositoryFile } from '../../src/modules/git-sync/gitbook-repository.ts';
import { buildOrganization, buildSpace } from '../factories.ts';
import { expectOk } from '../support/assertions.ts';
import { useHarness } from '../support/harness.ts';

const h = useHarness();
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const file = (path: string, content: string | Uint8Array): RepositoryFile => ({ path, bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content });

/** Shaped like a repository GitBook synced: a root folder, SUMMARY with groups and nesting, front matter, assets, redirects. */
const SYNCED = [
  file('.gitbook.yaml', 'root: ./docs/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  old/setup: guides/install.md\n'),
  file('docs/README.md', '# Welcome\n\nSee [install](guides/install.md) and ![logo](.gitbook/assets/logo.png).\n'),
  file(
    'docs/SUMMARY.md',
    '# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Getting started](guides/README.md)\n  * [Install](guides/install.md)\n  * [Configure](guides/configure.md)\n\n## Reference\n\n* [API](reference/api.md)\n',
  ),
  file('docs/guides/README.md', '---\ndescription: Start here\n---\n\n# Getting started\n\nRead [configure](configure.md#options).\n'),
  file('docs/guides/install.md', '# Install\n\n{% hint style="info" %}\nNeeds Node.\n{% endhint %}\n\nBack to [the start](../README.md).\n'),
  file('docs/guides/configure.md', '## Options\n\nNo leading title here.\n'),
  file('docs/reference/api.md', '# API\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'),
  file('docs/.gitbook/assets/logo.png', PNG),
  file('docs/.gitbook/assets/unused.png', PNG),
  file('other/outside.md', '# Outside the root\n'),
];

describe("GitBook's repository format", () => {
  it('.gitbook.yaml, SUMMARY.md (nesting, groups), links to pages and assets as refs, redirects', () => {
    const read = readGitBookRepository(SYNCED);
    expect(read).toMatchObject({ pages: 7, files: 1, redirects: [{ source: 'old/setup', destination: 'guides/install.md' }] });
    const [files, ...pages] = read.changes as any[];
    expect(files).toMatchObject({ operation: 'insert_files', files: [{ name: 'logo.png', ref: '.gitbook/assets/logo.png', contentType: 'image/png' }] });
    expect(pages.map((p) => [p.type ?? 'document', p.ref, p.into ?? null, p.title ?? null, p.slug ?? null])).toEqual([
      ['document', 'README.md', null, null, null],
      ['group', 'group:1', null, 'Guides', null],
      ['document', 'guides/README.md', 'group:1', null, 'guides'],
      ['document', 'guides/install.md', 'guides/README.md', null, 'install'],
      ['document', 'guides/configure.md', 'guides/README.md', 'Configure', 'configure'],
      ['group', 'group:2', null, 'Reference', null],
      ['document', 'reference/api.md', 'group:2', null, 'api'],
    ]);
    expect(pages[0].document.markdown).toBe('# Welcome\n\nSee [install](./guides/install.md) and ![logo](./.gitbook/assets/logo.png).\n');
    expect(pages[2].document.markdown).toContain('[configure](./guides/configure.md#options)');
    expect(pages[3].document.markdown).toContain('[the start](./README.md)');
  });

  it('written into a space: the tree, titles from leading headings, front matter, page links and the image resolved', async () => {
    const { admin, organizationId: o } = await buildOrganization(h);
    const space = await buildSpace(admin, o, { title: 'Synced' });
    const cr = expectOk(await admin.rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Import' }), 201);
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    expectOk(await admin.rest('POST', `${path}/content`, { changes: readGitBookRepository(SYNCED).changes }));
    expectOk(await admin.rest('POST', `${path}/merge`));
    const pages = expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/pages`)).pages;
    const shape = (list: any[]): any[] => list.map((p) => [p.type, p.title, ...(p.pages.length ? [shape(p.pages)] : [])]);
    expect(shape(pages)).toEqual([
      ['document', 'Welcome'],
      ['group', 'Guides', [['document', 'Getting started', [['document', 'Install'], ['document', 'Configure']]]]],
      ['group', 'Reference', [['document', 'API']]],
    ]);
    const [welcome, guides] = pages;
    const install = guides.pages[0].pages[0];
    const markdownOf = async (id: string) => expectOk(await admin.rest('GET', `/v1/spaces/${space.id}/content/page/${id}?format=markdown`)).markdown as string;
    const welcomeBody = await markdownOf(welcome.id);
    expect(welcomeBody).toContain(`[install](/pages/${install.id})`);
    expect(welcomeBody).toMatch(/!\[logo\]\(\/files\/[\w-]+\)/);
    expect(guides.pages[0].description).toBe('Start here');
    expect(await markdownOf(install.id)).toBe(`{% hint style="info" %}\nNeeds Node.\n{% endhint %}\n\nBack to [the start](/pages/${welcome.id}).\n`);
  });

  it('without SUMMARY.md: the readme, then folders and files by name, a folder README its page; projectDirectory selects a folder', () => {
    const read = readGitBookRepository([
      file('site/docs/README.md', '# Home\n'),
      file('site/docs/b-usage.md', '# Usage\n'),
      file('site/docs/a-setup/README.md', '# Setup\n'),
      file('site/docs/a-setup/linux.md', '# Linux\n'),
      file('site/docs/z-notes/tips.md', 'Tips without a title.\n'),
      file('elsewhere/README.md', '# Not this one\n'),
    ], { projectDirectory: 'site/docs' });
    expect((read.changes as any[]).map((p) => [p.ref, p.into ?? null, p.title ?? null])).toEqual([
      ['README.md', null, null],
      ['a-setup/README.md', null, null],
      ['a-setup/linux.md', 'a-setup/README.md', null],
      ['b-usage.md', null, null],
      [expect.stringMatching(/^page:/), null, 'Z notes'],
      ['z-notes/tips.md', expect.stringMatching(/^page:/), 'Tips'],
    ]);
  });

  it('refuses, naming the file: a page listed twice, YAML that is not, a root above the repository', () => {
    const refusal = (files: RepositoryFile[]) => {
      try {
        readGitBookRepository(files);
      } catch (error) {
        expect(error).toBeInstanceOf(RepositoryFormatError);
        return (error as RepositoryFormatError).message;
      }
      throw new Error('not refused');
    };
    expect(refusal([file('SUMMARY.md', '* [A](a.md)\n* [Again](a.md)\n'), file('a.md', '# A')])).toBe('SUMMARY.md: lists "a.md" twice');
    expect(refusal([file('.gitbook.yaml', 'root: [unclosed')])).toBe('.gitbook.yaml: is not valid YAML');
    expect(refusal([file('.gitbook.yaml', 'root: ../../etc')])).toBe('.gitbook.yaml root: must stay inside the repository');
    // Bounded: more pages than allowed is refused before any body is read.
    let tooMany = '';
    try {
      readGitBookRepository([file('SUMMARY.md', Array.from({ length: 12 }, (_, i) => `* [P${i}](p${i}.md)`).join('\n'))], { limits: { maxPages: 5 } });
    } catch (error) {
      tooMany = (error as Error).message;
    }
    expect(tooMany).toBe('SUMMARY.md: more than 5 pages');
  });
});
