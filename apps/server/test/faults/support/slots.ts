/** The n-th distinct bookable slot of the fixture venue: one per hour from 09:00 Paris, day after day from 2027. */
export function slotStart(n: number): string {
  const day = Math.floor(n / 8);
  const hour = 8 + (n % 8); // 08:00–15:00 UTC is 09:00–16:00 in Paris in winter
  const date = new Date(Date.UTC(2027, 0, 4 + day, hour));
  return date.toISOString().replace('.000Z', 'Z');
}
