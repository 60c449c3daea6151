/** A URL parameter that must be one of a schema's options; anything else is left out (no filter). */
export function pickOption<T extends string>(options: readonly T[], value: string | null): T | undefined {
  return options.find((option) => option === value);
}

/** A page number from the URL: digits only, else the first page. */
export function pageParam(value: string | null): string | undefined {
  return value && /^[1-9]\d{0,5}$/.test(value) ? value : undefined;
}
