import { GraphQLError } from 'graphql';

/**
 * Status and message for a failed REST request (its body is the edge's refusal, src/http/refusal.ts).
 * Every expected failure is a GraphQLError carrying its HTTP status — ours (AppError, including the 400s
 * that name a bad parameter, see variables.ts) and SOFA's own (a malformed path escape) alike; anything
 * else is a 500 that reveals nothing.
 */
export function describeFailure(error: unknown): { status: number; message: string; unexpected: boolean } {
  if (error instanceof GraphQLError) {
    const status = (error.extensions?.http as { status?: number } | undefined)?.status;
    if (status && status < 500) return { status, message: error.message, unexpected: false };
  }
  return { status: 500, message: 'Internal server error', unexpected: true };
}
