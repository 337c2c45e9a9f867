import { ScimError as PatchLibraryError, patchBodyValidation, type ScimPatch, scimPatch } from 'scim-patch';
import { ScimError, type ScimType } from './errors.js';
import { PATCH_SCHEMA } from './resources.js';

// PATCH (RFC 7644 §3.5.2) through scim-patch: the operations are applied to the resource as SCIM
// shows it, and the result is then saved like a PUT of it, through the same checks.

const MAX_OPERATIONS = 1000;

export function applyPatch<T extends { schemas: string[] }>(resource: T, body: unknown): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ScimError(400, 'The body must be a PatchOp message.', 'invalidSyntax');
  const message = body as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(message.schemas) || !message.schemas.includes(PATCH_SCHEMA))
    throw new ScimError(400, `schemas must be ["${PATCH_SCHEMA}"].`, 'invalidSyntax');
  if (!Array.isArray(message.Operations) || message.Operations.length === 0)
    throw new ScimError(400, 'Operations must be a list of at least one operation.', 'invalidSyntax');
  if (message.Operations.length > MAX_OPERATIONS)
    throw new ScimError(400, `At most ${MAX_OPERATIONS} operations at once.`, 'tooMany');
  // Providers write the operation in any case ("Replace", "ADD"); the library knows two spellings.
  const operations = message.Operations.map((op: unknown) => {
    if (typeof op !== 'object' || op === null)
      throw new ScimError(400, 'Each operation must be an object.', 'invalidSyntax');
    const o = op as { op?: unknown };
    return typeof o.op === 'string' ? { ...o, op: o.op.toLowerCase() } : o;
  });
  // The casts below hand unknown JSON to scim-patch, whose types describe a valid patch and resource:
  // patchBodyValidation checks the patch at run time (and throws), and the resource is ours.
  const patch = { schemas: [PATCH_SCHEMA], Operations: operations } as unknown as ScimPatch;
  try {
    patchBodyValidation(patch);
    const copy = structuredClone(resource) as unknown as Parameters<typeof scimPatch>[0];
    return scimPatch(copy, patch.Operations, { treatMissingAsAdd: true }) as unknown as T;
  } catch (error) {
    if (error instanceof PatchLibraryError) {
      throw new ScimError(400, error.message, (error.scimCode ?? 'invalidValue') as ScimType);
    }
    throw new ScimError(400, `The patch cannot be applied: ${(error as Error).message}`, 'invalidValue');
  }
}
