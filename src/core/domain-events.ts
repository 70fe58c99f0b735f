import type { Prisma } from '../generated/prisma/client.ts';

/**
 * Events one module publishes and others act on, inside the publisher's transaction — so a module
 * that must reach another (a space deleted must leave the sites publishing it) does not import it, and
 * module dependencies keep pointing one way. Subscribers are declared with their module
 * (`DomainModule.events`) and wired by the schema assembly; each runs in the transaction the event was
 * published in, in the order the modules are listed, and a failure rolls the whole write back.
 */
export interface DomainEvents {
  /** Spaces left their organization's content — deleted (with their collection), or transferred away. */
  'spaces.removed': { spaceIds: readonly string[] };
  /** A space was copied (its active content as `revisionId` of the copy; `sourceRevisionId` the original's). */
  'space.duplicated': { sourceSpaceId: string; copySpaceId: string; revisionId: string; sourceRevisionId: string | null };
  /** A change request was merged: `revisionId` is the space's new content, by `mergedById`. */
  'changeRequest.merged': { spaceId: string; changeRequestId: string; number: number; subject: string; revisionId: string; mergedById: string; at: Date };
}

export type DomainEventName = keyof DomainEvents;
export type DomainEventHandler<K extends DomainEventName> = (tx: Prisma.TransactionClient, event: DomainEvents[K]) => Promise<void>;
export type DomainEventHandlers = { [K in DomainEventName]?: DomainEventHandler<K> };

const subscribers = new Map<DomainEventName, DomainEventHandler<never>[]>();

/** Subscribes a module's handlers (the schema assembly does, once per module). */
export function subscribeToDomainEvents(handlers: DomainEventHandlers): void {
  for (const [name, handler] of Object.entries(handlers) as [DomainEventName, DomainEventHandler<never>][]) {
    subscribers.set(name, [...(subscribers.get(name) ?? []), handler]);
  }
}

/** Runs every subscriber of `name` in the transaction `tx`. */
export async function publishDomainEvent<K extends DomainEventName>(tx: Prisma.TransactionClient, name: K, event: DomainEvents[K]): Promise<void> {
  for (const handler of (subscribers.get(name) ?? []) as DomainEventHandler<K>[]) await handler(tx, event);
}
