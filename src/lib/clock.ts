/** Injectable time source so that tests can move time (ping, retention windows) without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
