import { describe, expect, it } from 'vitest';
import { addMonths, monthlyPeriodEnd } from '../../src/lib/billing-period.ts';

const d = (iso: string) => new Date(iso);

describe('monthly billing periods', () => {
  it('move by calendar months at the same time of day, clamping to shorter months and coming back', () => {
    const anchor = d('2025-01-31T10:30:00.000Z');
    expect([1, 2, 3, 12, 13].map((m) => addMonths(anchor, m).toISOString())).toEqual([
      '2025-02-28T10:30:00.000Z',
      '2025-03-31T10:30:00.000Z',
      '2025-04-30T10:30:00.000Z',
      '2026-01-31T10:30:00.000Z',
      '2026-02-28T10:30:00.000Z',
    ]);
    expect(addMonths(d('2023-03-31T00:00:00.000Z'), 11).toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it('the current period ends at the first period end after now', () => {
    const anchor = d('2025-01-31T10:30:00.000Z');
    const cases: [string, string][] = [
      ['2025-01-31T10:30:00.000Z', '2025-02-28T10:30:00.000Z'], // at creation: the first period
      ['2025-02-28T10:29:59.999Z', '2025-02-28T10:30:00.000Z'],
      ['2025-02-28T10:30:00.000Z', '2025-03-31T10:30:00.000Z'], // a period end starts the next period
      ['2025-03-01T00:00:00.000Z', '2025-03-31T10:30:00.000Z'],
      ['2025-12-31T23:59:59.000Z', '2026-01-31T10:30:00.000Z'],
      ['2027-02-28T10:30:00.000Z', '2027-03-31T10:30:00.000Z'],
    ];
    for (const [now, end] of cases) expect(monthlyPeriodEnd(anchor, d(now)).toISOString(), now).toBe(end);
    // A mid-month anchor, and a clock behind the anchor (the first period).
    expect(monthlyPeriodEnd(d('2025-06-15T00:00:00.000Z'), d('2025-08-20T00:00:00.000Z')).toISOString()).toBe('2025-09-15T00:00:00.000Z');
    expect(monthlyPeriodEnd(d('2025-06-15T00:00:00.000Z'), d('2025-06-01T00:00:00.000Z')).toISOString()).toBe('2025-07-15T00:00:00.000Z');
  });
});
