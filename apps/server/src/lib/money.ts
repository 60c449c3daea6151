import type { z } from 'zod';
import type { Money } from '@spa/contract';

type MoneyJson = z.infer<typeof Money>;

/** Decimal places of a currency (EUR 2, JPY 0, BHD 3), from the runtime's ISO 4217 data. */
export function minorDigits(currency: string): number {
  let digits = DIGITS.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    DIGITS.set(currency, digits);
  }
  return digits;
}

/** Building an Intl.NumberFormat costs ~0.5 ms; the answer per currency never changes. */
const DIGITS = new Map<string, number>();

export function toMoney(minor: number, currency: string): MoneyJson {
  return { amount: minor / 10 ** minorDigits(currency), currency };
}

/** Major units to integer minor units; undefined when the amount has more decimals than the currency allows. */
export function toMinor(amount: number, currency: string): number | undefined {
  const scaled = amount * 10 ** minorDigits(currency);
  const minor = Math.round(scaled);
  // Tolerates binary noise (0.1 + 0.2) but not a real extra decimal.
  return Math.abs(scaled - minor) < 1e-6 && Number.isSafeInteger(minor) ? minor : undefined;
}

/** A percentage of an amount in minor units, rounded half-up; percent in basis points keeps the arithmetic exact. */
export function percentOfMinor(totalMinor: number, percent: number): number {
  const basisPoints = Math.round(percent * 100);
  return Math.floor((totalMinor * basisPoints + 5_000) / 10_000);
}
