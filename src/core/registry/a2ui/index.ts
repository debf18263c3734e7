/**
 * The two A2UI dialects a UI schema may use, and which one a definition is in: the `dialect`
 * field when given, otherwise the definition's shape (an `a2ui.v1` view object carries
 * `kind: "a2ui.v1"`; a Google v0.9 definition is an array of `version: "v0.9"` messages).
 */
import { diag, type Diagnostic } from '../../diagnostics.js';
import type { UiDialect } from '../model.js';
import { checkGoogleMessages, GOOGLE_VERSION } from './google-v0-9.js';
import { isObject } from './props.js';
import { checkTrainerView, TRAINER_KIND } from './trainer-v1.js';

export { BASIC_CATALOG_ID } from './google-catalog.js';

export function inferDialect(definition: unknown): UiDialect | undefined {
  if (isObject(definition) && definition.kind === TRAINER_KIND) return 'a2ui.v1';
  if (Array.isArray(definition) && isObject(definition[0]) && definition[0].version === GOOGLE_VERSION) return 'a2ui.google.v0.9';
  return undefined;
}

/** Findings of one definition; `pointer` is where it sits in ui_schemas.json. */
export function checkUiDefinition(dialect: UiDialect | undefined, definition: unknown, pointer: string, tools: ReadonlySet<string>): Diagnostic[] {
  const d = dialect ?? inferDialect(definition);
  switch (d) {
    case 'a2ui.v1':
      return checkTrainerView(definition, pointer);
    case 'a2ui.google.v0.9':
      return checkGoogleMessages(definition, pointer, tools);
    case undefined:
      return [
        diag('UI_DIALECT_UNKNOWN', 'the definition is neither an a2ui.v1 view (kind "a2ui.v1") nor an array of A2UI v0.9 messages', {
          pointer,
          hint: 'set "dialect" to "a2ui.v1" or "a2ui.google.v0.9"',
        }),
      ];
    default: {
      const never: never = d;
      return never;
    }
  }
}
