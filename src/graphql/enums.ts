import { builder } from './builder.ts';
import { ROLES } from '../modules/organizations/roles.ts';

export const RoleEnum = builder.enumType('Role', {
  description:
    'Role of a member: admin (administrate content), create (create content), review (review content), edit (edit content), comment (access content and discussions), read (access content)',
  values: ROLES,
});

export const TeamRoleEnum = builder.enumType('TeamRole', {
  description: 'Role in a team: owner (can manage team members) or member',
  values: ['owner', 'member'] as const,
});
