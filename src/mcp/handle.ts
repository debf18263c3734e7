/**
 * How a module of the server adds request handlers: each with the schema its params are checked
 * against before it runs (wire/gate.ts), so a request off its schema gets -32602 with one
 * sentence rather than the SDK's -32603 and zod dump.
 */
import type { z } from 'zod';

export type Handle = <S extends z.ZodObject<{ method: z.ZodLiteral<string> }>>(schema: S, handler: (req: z.infer<S>) => unknown) => void;
