import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../../core/context.ts';
import { builder } from '../../graphql/builder.ts';
import { constrained } from '../../graphql/constraints.ts';
import { listArgs, listItemsQuery } from '../../graphql/list.ts';
import { RoleEnum } from '../organizations/index.ts';
import { MAX_INVITEES_PER_CALL } from './content-grants.ts';
import type { GrantScreens } from './grant-screens.ts';

/**
 * The root fields of a kind's access list — `<noun>UserPermissions`, `<noun>TeamPermissions`,
 * `inviteTo<Noun>`, `update<Noun>UserPermission`, `update<Noun>TeamPermission`, `remove<Noun>User`,
 * `remove<Noun>Team` — declared once for spaces, collections and sites over their `GrantScreens`. The
 * path arguments that name the resource (`spaceId`; `organizationId` and `siteId`) are the kind's.
 */
export interface GrantFieldsOptions<P> {
  /** `space`, `collection`, `site`: the field names' stem. */
  noun: string;
  /** The arguments that name the resource, and how they make its path. */
  pathArgs: Record<string, any>;
  pathOf: (args: Record<string, any>) => P;
  screens: GrantScreens<P>;
  /** The list types of the kind (GitBook names them per kind). */
  userList: any;
  teamList: any;
  /** Who reads the lists, and who changes them, as the descriptions say it. */
  listedBy: string;
  grantedBy: string;
  /** What else a level on it reaches (a collection's: everything inside it). */
  reach?: string;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** An invite names 1..100 users, and as many teams. */
export const inviteeList = constrained({ minItems: 1, maxItems: MAX_INVITEES_PER_CALL });

export function declareGrantFields<P>(options: GrantFieldsOptions<P>): void {
  const { noun, pathArgs, pathOf, screens, listedBy, grantedBy } = options;
  const Noun = capital(noun);
  const userPath = builder.args((t) => ({ userId: t.string({ required: true, description: 'ID of the user' }) }));
  const teamPath = builder.args((t) => ({ teamId: t.string({ required: true, description: 'ID of the team' }) }));
  const rest = (args: Record<string, any>) => {
    const { userId: _user, teamId: _team, role: _role, ...others } = args;
    for (const key of Object.keys(pathArgs)) delete others[key];
    return others;
  };

  builder.queryFields((t) => ({
    [`${noun}UserPermissions`]: t.field({
      type: options.userList,
      description: `Users given a level on the ${noun} (${listedBy})`,
      args: { ...pathArgs, ...listArgs },
      resolve: ((_root: unknown, args: Record<string, any>, ctx: Context) => screens.listUsers(ctx, pathOf(args), rest(args))) as any,
    }),
    [`${noun}TeamPermissions`]: t.field({
      type: options.teamList,
      description: `Teams given a level on the ${noun} (${listedBy})`,
      args: { ...pathArgs, ...listArgs },
      resolve: ((_root: unknown, args: Record<string, any>, ctx: Context, info: GraphQLResolveInfo) =>
        screens.listTeams(ctx, pathOf(args), rest(args), listItemsQuery(ctx, info, ['items', 'team']))) as any,
    }),
  }));

  builder.mutationFields((t) => ({
    [`inviteTo${Noun}`]: t.boolean({
      description: `Give members and teams of the organization a level on the ${noun}${options.reach ?? ''} (${grantedBy}, up to their own level)`,
      args: {
        ...pathArgs,
        role: t.arg({ type: RoleEnum, required: true, description: 'Level to give' }),
        users: t.arg.stringList({ description: 'IDs of members of the organization (guests included)', extensions: inviteeList }),
        teams: t.arg.stringList({ description: 'IDs of teams of the organization', extensions: inviteeList }),
        emails: t.arg.stringList({
          description:
            'Addition: e-mail addresses (at most 100). Members get the level at once; anyone else is invited to the organization as a guest, and gets the level on accepting',
          extensions: constrained({ maxItems: MAX_INVITEES_PER_CALL }),
        }),
      },
      resolve: (_root, args, ctx) => screens.invite(ctx, pathOf(args), { role: args.role, users: args.users, teams: args.teams, emails: args.emails }),
    }),
    [`update${Noun}UserPermission`]: t.boolean({
      description: `Change a user's level on the ${noun} (${grantedBy})`,
      args: { ...pathArgs, ...userPath, role: t.arg({ type: RoleEnum, description: 'The new level' }) },
      resolve: (_root, args, ctx) => screens.update(ctx, pathOf(args), { userId: args.userId }, args.role),
    }),
    [`update${Noun}TeamPermission`]: t.boolean({
      description: `Change a team's level on the ${noun} (${grantedBy})`,
      args: { ...pathArgs, ...teamPath, role: t.arg({ type: RoleEnum, description: 'The new level' }) },
      resolve: (_root, args, ctx) => screens.update(ctx, pathOf(args), { teamId: args.teamId }, args.role),
    }),
    [`remove${Noun}User`]: t.boolean({
      description: `Remove a user's grant on the ${noun} (${grantedBy}): true when there was one`,
      args: { ...pathArgs, ...userPath },
      resolve: (_root, args, ctx) => screens.remove(ctx, pathOf(args), { userId: args.userId }),
    }),
    [`remove${Noun}Team`]: t.boolean({
      description: `Remove a team's grant on the ${noun} (${grantedBy}): true when there was one`,
      args: { ...pathArgs, ...teamPath },
      resolve: (_root, args, ctx) => screens.remove(ctx, pathOf(args), { teamId: args.teamId }),
    }),
  }));
}
