// Validates the OpenAPI document on stdin with @seriousme/openapi-schema-validator and
// prints {valid, errors}. A separate ES module process: the validator is ESM-only
// (import.meta), which jest's CommonJS module system cannot load.
import { Validator } from '@seriousme/openapi-schema-validator';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const result = await new Validator().validate(JSON.parse(input));
process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors ?? null }));
