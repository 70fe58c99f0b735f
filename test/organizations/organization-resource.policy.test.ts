import { describe, expect, it } from 'vitest';
import { keepsAnAdmin } from '../../src/modules/organizations/organization.policy.ts';
import { organizationResourcePolicy } from '../../src/modules/organizations/organization-resource.policy.ts';
import { openApiSpecPolicy } from '../../src/modules/openapi-specs/openapi-spec.policy.ts';
import { translationSettingsPolicy } from '../../src/modules/translations/translation-settings.policy.ts';
import { member, outsider, policyTable } from '../support/policy-table.ts';

const actor = (role: Parameters<typeof member>[0], extra: Parameters<typeof member>[1] = {}, organizationSso = false) => ({ ...member(role, extra), organizationSso });

describe('what belongs to an organization (translation settings, OpenAPI specs): members with a role read, admins change, guests 403, outsiders 404', () => {
  const policy = organizationResourcePolicy<{ id: string }>({ notFound: (r) => `Thing "${r.id}" not found`, plural: 'things' });
  policyTable(
    policy,
    {
      admin: actor('admin'),
      reader: actor('read'),
      creator: actor('create'),
      guest: actor(null),
      'disabled admin': actor('admin', { disabled: true }),
      'non-SSO reader of an SSO organization': actor('read', {}, true),
      'non-SSO admin of an SSO organization': actor('admin', {}, true),
      outsider: { ...outsider, organizationSso: false },
    },
    { 'a thing': { id: 't' } },
    [
      ['admin', 'read', 'a thing', 'allowed'],
      ['admin', 'edit', 'a thing', 'allowed'],
      ['reader', 'read', 'a thing', 'allowed'],
      ['reader', 'edit', 'a thing', 403],
      ['creator', 'edit', 'a thing', 403],
      ['guest', 'read', 'a thing', 403],
      ['disabled admin', 'read', 'a thing', 404],
      ['non-SSO reader of an SSO organization', 'read', 'a thing', 403],
      ['non-SSO admin of an SSO organization', 'edit', 'a thing', 'allowed'],
      ['outsider', 'read', 'a thing', 404],
    ],
  );

  it('translation settings and OpenAPI specs are that rule, each naming itself', () => {
    expect(Object.keys(translationSettingsPolicy.rules)).toEqual(['read', 'edit']);
    expect(translationSettingsPolicy.notFound({ id: 'x' })).toBe('Translation settings "x" not found');
    expect(openApiSpecPolicy.notFound({ slug: 'petstore' })).toBe('OpenAPI spec "petstore" not found');
    expect(openApiSpecPolicy.refusals.edit).toBe('Only organization admins can change OpenAPI specs');
  });
});

describe('an organization always keeps an admin', () => {
  it.each([
    [{ wasAdmin: true, staysAdmin: false, otherAdmins: 0 }, false],
    [{ wasAdmin: true, staysAdmin: false, otherAdmins: 1 }, true],
    [{ wasAdmin: true, staysAdmin: true, otherAdmins: 0 }, true],
    [{ wasAdmin: false, staysAdmin: false, otherAdmins: 0 }, true],
  ])('%o → %s', (change, keeps) => {
    expect(keepsAnAdmin(change)).toBe(keeps);
  });
});
