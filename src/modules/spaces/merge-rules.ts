import { BadRequestError } from '../../core/errors.ts';

/**
 * A space's merge rules, GitBook's `MergeRulesSpaceConfiguration`: `{ type: "inherit" }` (the default:
 * the organization's, which has none of its own here, so nothing is required), `{ type: "none" }`, or
 * `{ type: "rules", rules: [...] }`, every rule of which must hold for POST …/merge to go ahead (409
 * naming the first that does not). Pure: the merge evaluates them with what it read.
 */
export type MergeRule =
  | { rule: 'require_at_least_one_review' }
  | { rule: 'require_at_least_one_approved_review' }
  | { rule: 'require_all_reviews_approved' }
  | { rule: 'require_up_to_date_change_request' }
  | { rule: 'require_change_request_subject' };
export type MergeRulesConfiguration = { type: 'inherit' } | { type: 'none' } | { type: 'rules'; rules: MergeRule[] };

/** The rules served; GitBook's others (specific reviewers, bypass, agent review, custom expressions, …) are a 400. */
export const SUPPORTED_MERGE_RULES = [
  'require_at_least_one_review',
  'require_at_least_one_approved_review',
  'require_all_reviews_approved',
  'require_up_to_date_change_request',
  'require_change_request_subject',
] as const;
export const MAX_MERGE_RULES = 10;

export const DEFAULT_MERGE_RULES: MergeRulesConfiguration = Object.freeze({ type: 'inherit' });

const isDefaultMergeRules = (stored: unknown): boolean => {
  if (!stored || typeof stored !== 'object' || (stored as { type?: unknown }).type !== 'inherit') return false;
  for (const key in stored) if (key !== 'type') return false;
  return true;
};

/** The `mergeRules` of updateSpace, checked: 400 naming what is wrong. */
export function parseMergeRules(value: unknown): MergeRulesConfiguration {
  const invalid = (detail: string) => new BadRequestError(`Invalid "mergeRules${detail}`);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid('": an object { type: inherit | none | rules }');
  const { type, rules, ...rest } = value as Record<string, unknown>;
  if (type === 'inherit' || type === 'none') {
    if (rules !== undefined || Object.keys(rest).length) throw invalid(`": type ${type} takes no other property`);
    return { type };
  }
  if (type !== 'rules') throw invalid('.type": one of inherit, none, rules');
  if (Object.keys(rest).length) throw invalid(`.${Object.keys(rest)[0]}": unknown property`);
  if (!Array.isArray(rules) || rules.length > MAX_MERGE_RULES) throw invalid(`.rules": an array of at most ${MAX_MERGE_RULES} rules`);
  const parsed: MergeRule[] = [];
  for (const [i, item] of rules.entries()) {
    const rule = item && typeof item === 'object' ? (item as Record<string, unknown>).rule : undefined;
    if (typeof rule !== 'string' || !(SUPPORTED_MERGE_RULES as readonly string[]).includes(rule)) {
      throw invalid(`.rules[${i}].rule": one of ${SUPPORTED_MERGE_RULES.join(', ')} (GitBook's other rules are not supported)`);
    }
    if (Object.keys(item as object).length !== 1) throw invalid(`.rules[${i}]": ${rule} takes no other property`);
    if (!parsed.some((r) => r.rule === rule)) parsed.push({ rule } as MergeRule);
  }
  return { type: 'rules', rules: parsed };
}

/** A stored configuration as the API answers it (anything unreadable counts as the default). */
export function mergeRulesOf(stored: unknown): MergeRulesConfiguration {
  // The column's default, held by most spaces: answered without parsing (list answers read it per item).
  if (isDefaultMergeRules(stored)) return DEFAULT_MERGE_RULES;
  try {
    return parseMergeRules(stored);
  } catch {
    return DEFAULT_MERGE_RULES;
  }
}

/** What the rules look at when a change request is merged. */
export interface MergeRuleContext {
  subject: string;
  /** The change request is behind the space's content (it would be merged with main in the same step). */
  outdated: boolean;
  /** Each reviewer's latest review of the change request's current revision. */
  currentReviews: { status: 'approved' | 'changes_requested' }[];
}

const REFUSALS: Record<MergeRule['rule'], string> = {
  require_at_least_one_review: 'the space requires at least one review of its current content',
  require_at_least_one_approved_review: 'the space requires an approved review of its current content',
  require_all_reviews_approved: 'the space requires every review of its current content to approve it',
  require_up_to_date_change_request: 'the space requires it to be up to date with the space (POST …/update)',
  require_change_request_subject: 'the space requires it to have a subject',
};

const holds: Record<MergeRule['rule'], (c: MergeRuleContext) => boolean> = {
  require_at_least_one_review: (c) => c.currentReviews.length > 0,
  require_at_least_one_approved_review: (c) => c.currentReviews.some((r) => r.status === 'approved'),
  require_all_reviews_approved: (c) => c.currentReviews.length > 0 && c.currentReviews.every((r) => r.status === 'approved'),
  require_up_to_date_change_request: (c) => !c.outdated,
  require_change_request_subject: (c) => c.subject.trim().length > 0,
};

/** The reason the first rule that does not hold gives, or null when the merge may go ahead. */
export function mergeRuleRefusal(config: MergeRulesConfiguration, context: MergeRuleContext): string | null {
  if (config.type !== 'rules') return null;
  const failed = config.rules.find((r) => !holds[r.rule](context));
  return failed ? `${REFUSALS[failed.rule]} (merge rule ${failed.rule})` : null;
}

/** Whether the rules look at reviews at all (the merge reads them only then). */
export const needsReviews = (config: MergeRulesConfiguration) =>
  config.type === 'rules' && config.rules.some((r) => r.rule.includes('review'));
