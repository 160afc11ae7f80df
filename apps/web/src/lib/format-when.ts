const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A date and time as every ticket screen shows it ("Nov 27, 2026, 12:36 PM"); "—" for none. */
export function formatWhen(value: string | null): string {
  if (value === null) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : dateFormat.format(date);
}

const exactFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The same, to the second, where the order of events matters (the activity log: "Nov 27, 2026, 12:36:05 PM"). */
export function formatWhenExact(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : exactFormat.format(date);
}
