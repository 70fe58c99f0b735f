import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { viewerOf } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { userPolicy } from './user.policy.ts';
import { createUserWithToken } from './user.service.ts';

const UserUrls = builder.simpleObject('UserUrls', { fields: (t) => ({ location: t.string({ extensions: constrained({ format: 'uri' }) }) }) });

export const UserRef = builder.prismaObject('User', {
  description: 'A person using the platform',
  fields: (t) => ({
    object: t.string({ extensions: constrained({ enum: ['user'] }), resolve: () => 'user' }),
    id: t.exposeID('id'),
    displayName: t.exposeString('displayName'),
    email: t.exposeString('email'),
    photoURL: t.exposeString('photoURL', { nullable: true }),
    urls: t.field({
      type: UserUrls,
      resolve: (user, _args, ctx) => ({ location: `${ctx.config.apiUrl}/users/${user.id}` }),
    }),
  }),
});

const CreatedUser = builder.simpleObject('CreatedUser', {
  description: 'A new user with a personal access token (shown only once)',
  fields: (t) => ({ user: t.field({ type: UserRef }), token: t.string() }),
});

builder.queryFields((t) => ({
  user: t.field({
    type: UserRef,
    description: 'The authenticated user',
    resolve: (_root, _args, ctx) => viewerOf(ctx).user,
  }),
}));

builder.mutationFields((t) => ({
  adminCreateUser: t.field({
    type: CreatedUser,
    description: 'Instance administration: create a user and a personal access token (ADMIN_TOKEN only)',
    args: {
      email: t.arg.string({ required: true, description: 'E-mail address of the user', extensions: constrained({ format: 'email', maxLength: 254 }) }),
      displayName: t.arg.string({ required: true, description: 'Name shown for the user (1..100)', extensions: constrained({ minLength: 1, maxLength: 100 }) }),
    },
    resolve: (_root, args, ctx) => {
      authorize(userPolicy, { instanceAdmin: ctx.instanceAdmin, scopeOrganizationId: ctx.viewer?.scopeOrganizationId ?? null }, 'createUser', null);
      return createUserWithToken(ctx.db, args, ctx.clock.now());
    },
  }),
}));
