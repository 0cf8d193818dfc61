// The ticketing API's own zod fields, on top of the kit's (api/kit/fields.ts).
import { text } from '../kit/fields';

/** A workspace id as a body, query or path field: our ids are at most 255 characters. */
export const workspaceIdParam = () => text(255, { required: true });
