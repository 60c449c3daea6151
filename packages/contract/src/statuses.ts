/**
 * A route's `responses` with every status as a number in its type. TypeScript types a property that comes from a
 * spread (`...commonErrors`) under a string name ("401"), and ts-rest's response types only take numeric keys,
 * so without this the statuses shared by many routes (401, 429, 500, 503, 408, 413, 415, ...) were missing from
 * the typed answers of the SDK and of any ts-rest client. Types only: the object is returned as it is.
 */
export type NumericStatuses<T> = {
  [K in keyof T as K extends `${infer Status extends number}` ? Status : K]: T[K];
};

export const statuses = <const T extends object>(responses: T): NumericStatuses<T> => responses as NumericStatuses<T>;
