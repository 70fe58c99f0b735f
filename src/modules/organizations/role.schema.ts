import { builder } from '../../graphql/builder.ts';
import { ROLES } from './roles.ts';

/** The member roles, as every module's types spell them. */
export const RoleEnum = builder.enumType('Role', {
  description:
    'Role of a member: admin (administrate content), create (create content), review (review content), edit (edit content), comment (access content and discussions), read (access content)',
  values: ROLES,
});
