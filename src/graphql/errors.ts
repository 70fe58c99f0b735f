import { GraphQLError } from 'graphql';

/**
 * One error hierarchy for both doors. Each carries a GraphQL `extensions.code` and the HTTP status that
 * the REST layer (and Yoga) use for the response; REST renders it as `{ error: { code, message } }`.
 */
export class AppError extends GraphQLError {
  constructor(message: string, code: string, status: number) {
    super(message, { extensions: { code, http: { status } } });
  }
  get status(): number {
    return (this.extensions.http as { status: number }).status;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(message, 'BAD_REQUEST', 400);
  }
}
export class UnauthenticatedError extends AppError {
  constructor(message = 'Authentication required: send "Authorization: Bearer <token>"') {
    super(message, 'UNAUTHENTICATED', 401);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You are not allowed to do this') {
    super(message, 'FORBIDDEN', 403);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(message, 'NOT_FOUND', 404);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(message, 'CONFLICT', 409);
  }
}

/** Prisma's "record not found" / unique-violation codes, mapped where a service does not catch them itself. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'P2002';
}
