import type { Context } from '../../../core/context.ts';
import { MAX_DOCUMENT_NODES, type DocumentBudget } from './markdown-document.ts';

/**
 * The document nodes a request may still be answered (markdown-document.ts, MAX_DOCUMENT_NODES): one
 * budget per request, shared by every body it asks for as a document — a page, the pages of a tree, a
 * page of comments.
 */
const budgets = new WeakMap<Context, DocumentBudget>();

export function documentBudget(ctx: Context): DocumentBudget {
  let budget = budgets.get(ctx);
  if (!budget) {
    budget = { nodes: MAX_DOCUMENT_NODES };
    budgets.set(ctx, budget);
  }
  return budget;
}
