/** A refusal the operator reads in the CLI: plain words, no stack. */
export class OperatorError extends Error {}
