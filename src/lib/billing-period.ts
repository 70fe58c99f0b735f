/**
 * Monthly billing periods counted from an anchor date (an organization's `createdAt`): period k runs from
 * the anchor moved k months to the anchor moved k + 1 months, at the anchor's time of day (UTC). An anchor
 * on a day a month lacks (the 31st, say) falls on that month's last day, and later months return to the
 * anchor's day: 31 Jan → 28 Feb → 31 Mar.
 */

/** `anchor` moved by `months` calendar months (UTC), its day clamped to the last day of a shorter month. */
export function addMonths(anchor: Date, months: number): Date {
  const moved = new Date(anchor.getTime());
  moved.setUTCDate(1);
  moved.setUTCMonth(anchor.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(moved.getUTCFullYear(), moved.getUTCMonth() + 1, 0)).getUTCDate();
  moved.setUTCDate(Math.min(anchor.getUTCDate(), lastDay));
  return moved;
}

/** When the monthly period holding `now` ends (exclusive): the first period end after `now`. */
export function monthlyPeriodEnd(anchor: Date, now: Date): Date {
  let months = Math.max(1, (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth()));
  while (months > 1 && addMonths(anchor, months - 1) > now) months -= 1;
  while (addMonths(anchor, months) <= now) months += 1;
  return addMonths(anchor, months);
}
