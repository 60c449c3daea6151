/** Today's date where the venue is (YYYY-MM-DD), the form the bookings filter takes. */
export function localDate(timeZone: string, plusDays = 0): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date());
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const date = new Date(Date.UTC(get('year'), get('month') - 1, get('day') + plusDays));
  return date.toISOString().slice(0, 10);
}
