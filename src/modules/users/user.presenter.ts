import type { User } from '../../generated/prisma/client.ts';

/**
 * GitBook's `User` JSON — what `GET /v1/user` answers (the REST shape of UserRef: absent optionals
 * omitted) — for values built outside the typed schema: reactions and repliers of comments, the answer
 * of a SAML sign-in.
 */
export function userJson(user: User, apiUrl: string) {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoURL ? { photoURL: user.photoURL } : {}),
    urls: { location: `${apiUrl}/users/${user.id}` },
  };
}
