import type { Prisma, SamlProvider, User } from '../../generated/prisma/client.ts';
import type { AppServices } from '../../core/context.ts';
import { authorize } from '../../core/authorization.ts';
import { BadRequestError, NotFoundError, UnauthenticatedError } from '../../core/errors.ts';
import { newId } from '../../lib/ids.ts';
import { generateTokenSecret, hashToken } from '../../lib/tokens.ts';
import { isProviderActive, samlSignInPolicy } from './saml-provider.policy.ts';
import { authnRequestUrl, SamlRejected, verifySamlResponse } from './saml.ts';

/** RelayState is opaque to us and echoed by the identity provider; SAML bindings allow 80 bytes. */
const MAX_RELAY_STATE = 1024;

export interface SignInResult {
  user: User;
  organizationId: string;
  token: string;
}

async function findProvider(services: AppServices, providerId: string): Promise<SamlProvider> {
  const provider = await services.db.samlProvider.findUnique({ where: { id: providerId } });
  if (!provider) throw new NotFoundError(`SAML provider "${providerId}" not found`);
  return provider;
}

/** The URL to send the browser to: the provider's ssoURL with our AuthnRequest. */
export async function startSignIn(services: AppServices, providerId: string, relayState: string | null): Promise<string> {
  const provider = await findProvider(services, providerId);
  if (!isProviderActive(provider)) {
    throw new BadRequestError('This SAML provider is not fully configured: it needs an ssoURL and a certificate');
  }
  if (relayState !== null && relayState.length > MAX_RELAY_STATE) {
    throw new BadRequestError(`Invalid "RelayState": must be at most ${MAX_RELAY_STATE} characters`);
  }
  return authnRequestUrl(provider as SamlProvider & { ssoURL: string; certificate: string }, services.config.publicUrl, relayState);
}

function displayNameFor(email: string, displayName: string | null): string {
  const name = (displayName ?? email.split('@')[0]).trim() || email;
  return [...name].slice(0, 100).join('');
}

/**
 * Whether an organization's identity provider may sign this existing user in. The provider is run by
 * that organization's admins and can assert any e-mail address, so it vouches for people only inside
 * the organization: it may claim a pending (invited, never signed-in) user, sign in a member of the
 * organization, or an account that belongs to no organization; an account that belongs to other
 * organizations must first join this one with its own token (accepting an invitation or an invite
 * link) — that is its proof. Otherwise the sign-in is refused and nothing is linked.
 */
async function mayLinkAccount(tx: Prisma.TransactionClient, user: User, organizationId: string): Promise<boolean> {
  if (user.pending) return true;
  const memberships = await tx.member.findMany({ where: { userId: user.id }, select: { organizationId: true } });
  return memberships.length === 0 || memberships.some((m) => m.organizationId === organizationId);
}

/**
 * Completes a sign-in: verifies the SAMLResponse, then in one transaction records the assertion ID
 * (refusing a replay), finds or creates the user by e-mail (see `mayLinkAccount` for which existing
 * accounts may be signed in), makes them an SSO member (a new member gets the provider's defaultRole
 * and defaultTeam; an existing one keeps their role) and creates an access token scoped to the
 * provider's organization, whose secret is returned once and only hashed in the database.
 */
export async function completeSignIn(services: AppServices, providerId: string, samlResponse: string): Promise<SignInResult> {
  const provider = await findProvider(services, providerId);
  if (!provider.certificate) throw new UnauthenticatedError('This SAML provider has no certificate: no response can be verified');
  let assertion;
  try {
    assertion = await verifySamlResponse(provider as SamlProvider & { certificate: string }, services.config.publicUrl, samlResponse);
  } catch (error) {
    if (error instanceof SamlRejected) throw new UnauthenticatedError(error.message);
    throw error;
  }

  // Forget assertions that can no longer be accepted anyway (node-saml checks times with the real clock).
  await services.db.samlAssertionUse.deleteMany({ where: { expiresAt: { lt: new Date() } } });

  const now = services.clock.now();
  const token = generateTokenSecret();
  const organizationId = provider.organizationId;
  const user = await services.db.$transaction(async (tx) => {
    // The primary key makes this the single point where two instances race: the second insert waits
    // for the first transaction and then conflicts, so only one of them signs in.
    const used = await tx.samlAssertionUse.createMany({
      data: [{ assertionId: assertion.assertionId, providerId: provider.id, expiresAt: assertion.expiresAt, usedAt: now }],
      skipDuplicates: true,
    });
    if (used.count === 0) throw new UnauthenticatedError('SAML response rejected: this assertion has already been used');

    const displayName = displayNameFor(assertion.email, assertion.displayName);
    // ON CONFLICT DO NOTHING, then read: a concurrent first sign-in of the same person cannot fail this one.
    await tx.user.createMany({ data: [{ id: newId(), email: assertion.email, displayName, createdAt: now }], skipDuplicates: true });
    const found = await tx.user.findUniqueOrThrow({ where: { email: assertion.email } });
    const existing = await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId: found.id } } });
    authorize(samlSignInPolicy, { linkable: await mayLinkAccount(tx, found, organizationId), membership: existing }, 'signIn', provider);
    // Someone invited by e-mail exists as a pending user: signing in claims that record.
    const user = found.pending
      ? await tx.user.update({ where: { id: found.id }, data: { pending: false, ...(assertion.displayName ? { displayName } : {}) } })
      : found;
    const joined = await tx.member.createMany({
      data: [{ organizationId, userId: user.id, role: provider.defaultRole, sso: true, joinedAt: now }],
      skipDuplicates: true,
    });
    if (joined.count === 0) {
      await tx.member.update({ where: { organizationId_userId: { organizationId, userId: user.id } }, data: { sso: true } });
    } else if (provider.defaultTeamId) {
      const team = await tx.team.findFirst({ where: { id: provider.defaultTeamId, organizationId }, select: { id: true } });
      if (team) {
        await tx.teamMember.createMany({ data: [{ teamId: team.id, organizationId, userId: user.id, createdAt: now }], skipDuplicates: true });
      }
    }
    // Signing in through SSO is how an SSO invitation is accepted.
    await tx.invite.updateMany({ where: { organizationId, userId: user.id, acceptedAt: null }, data: { acceptedAt: now } });
    await tx.accessToken.create({
      data: {
        id: newId(),
        userId: user.id,
        tokenHash: hashToken(token),
        label: `SAML sign-in: ${provider.label}`,
        organizationId,
        createdAt: now,
      },
    });
    return user;
  });
  return { user, organizationId, token };
}
