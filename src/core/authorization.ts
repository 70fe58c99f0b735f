import { ForbiddenError, NotFoundError } from './errors.ts';

/**
 * The generic half of authorization: a policy (one per resource, in `modules/<domain>/<x>.policy.ts`)
 * names the resource's actions and the rule for each; services ask `authorize`, responses build their
 * `permissions` objects with `permissionsOf` — both through `can`, so what a response says the caller
 * may do is exactly what the server lets them do.
 *
 * Rules are pure functions of an *actor* (what the rules need to know about the caller relative to the
 * record: membership, effective level …, loaded by the caller) and the record.
 */
export type Rule<Actor, Rec> = (actor: Actor, record: Rec) => boolean;

export interface Policy<Action extends string, Actor, Rec> {
  /**
   * Whether the actor may know that the record exists (for this action). When not, `authorize` answers
   * 404 with `notFound`, the message an unknown ID gets: callers outside learn nothing.
   */
  visible: (actor: Actor, record: Rec, action: NoInfer<Action>) => boolean;
  notFound: (record: Rec) => string;
  /** Refusals that come before any action on a visible record (e.g. "this organization requires SSO"). */
  gates?: readonly { allows: Rule<Actor, Rec>; refusal: string; except?: readonly NoInfer<Action>[] }[];
  rules: { readonly [A in Action]: Rule<Actor, Rec> };
  /** The 403 message of each action, naming what is refused. */
  refusals: { readonly [A in NoInfer<Action>]: string | ((record: Rec) => string) };
}

/**
 * Declares a policy with its actor and record types fixed first, so that the actions are inferred:
 * `definePolicy<SpaceActor, Space>()({ rules: { read: …, edit: … }, … })`.
 */
export function definePolicy<Actor, Rec>() {
  return <Action extends string>(policy: Policy<Action, Actor, Rec>): Policy<Action, Actor, Rec> => policy;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ActionOf<P> = P extends Policy<infer A, any, any> ? A : never;

/**
 * Why the actor may not do `action`, as a maker of the error to throw, or null when allowed. A maker,
 * not an error: `can` asks this for every key of every list item's `permissions`, and an error captures
 * a stack trace, which costs more than the rules themselves.
 */
function refusal<Action extends string, Actor, Rec>(policy: Policy<Action, Actor, Rec>, actor: Actor, action: Action, record: Rec): (() => Error) | null {
  if (!policy.visible(actor, record, action)) return () => new NotFoundError(policy.notFound(record));
  for (const gate of policy.gates ?? []) {
    if (!gate.except?.includes(action) && !gate.allows(actor, record)) return () => new ForbiddenError(gate.refusal);
  }
  if (!policy.rules[action](actor, record)) {
    const message = policy.refusals[action];
    return () => new ForbiddenError(typeof message === 'function' ? message(record) : message);
  }
  return null;
}

/** Whether the actor may do `action` on the record: visible, past the gates, and allowed by its rule. */
export function can<Action extends string, Actor, Rec>(policy: Policy<Action, Actor, Rec>, actor: Actor, action: Action, record: Rec): boolean {
  return refusal(policy, actor, action, record) === null;
}

/** Throws 404 when the actor may not know the record exists, 403 (naming the action) when refused. */
export function authorize<Action extends string, Actor, Rec>(policy: Policy<Action, Actor, Rec>, actor: Actor, action: Action, record: Rec): void {
  const refused = refusal(policy, actor, action, record);
  if (refused) throw refused();
}

/** A `permissions` object: each key is `can` of the action it stands for. */
export function permissionsOf<Key extends string, Action extends string, Actor, Rec>(
  policy: Policy<Action, Actor, Rec>,
  actor: Actor,
  record: Rec,
  keys: { readonly [K in Key]: NoInfer<Action> },
): { [K in Key]: boolean } {
  const result = {} as { [K in Key]: boolean };
  for (const key in keys) result[key] = can(policy, actor, keys[key], record);
  return result;
}
