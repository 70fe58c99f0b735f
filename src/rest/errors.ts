import { GraphQLError } from 'graphql';
import { AppError } from '../graphql/errors.ts';

export interface RestErrorBody {
  error: { code: number; message: string };
}

export function errorResponse(status: number, message: string, headers?: Record<string, string>): Response {
  const body: RestErrorBody = { error: { code: status, message } };
  return Response.json(body, { status, headers });
}

// graphql-js phrases input errors as `Variable "$title" got invalid value 12; String cannot represent…`.
const VARIABLE_ERROR = /^Variable "\$(\w+)" (.*)$/s;

/**
 * Status and message for a failed execution: our AppErrors carry their HTTP status; graphql-js input
 * coercion errors (wrong type, missing required field, unknown enum value) are the caller's fault → 400,
 * reworded to name the field as it is spelled in the JSON body; anything else is a 500 that reveals nothing.
 */
export function describeFailure(error: unknown): { status: number; message: string; unexpected: boolean } {
  if (error instanceof GraphQLError) {
    const variable = VARIABLE_ERROR.exec(error.message);
    if (variable && !(error.originalError instanceof AppError)) {
      return { status: 400, message: `Invalid "${variable[1]}": ${variable[2]}`, unexpected: false };
    }
    const status = (error.extensions?.http as { status?: number } | undefined)?.status;
    if (status && status < 500) return { status, message: error.message, unexpected: false };
  }
  return { status: 500, message: 'Internal server error', unexpected: true };
}
