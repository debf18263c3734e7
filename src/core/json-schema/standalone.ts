import type { ErrorObject } from 'ajv';

/** A validator generated at build time by scripts/generate.mjs (ajv standalone code). */
export type StandaloneValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

export type { ErrorObject };
