import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** Validates an OpenAPI 3 document with @seriousme/openapi-schema-validator (in its own ESM process). */
export function validateOpenApi(doc: unknown): Promise<{ valid: boolean; errors: unknown }> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [join(__dirname, 'validate-openapi.mjs')], (err, stdout, stderr) => {
      if (err) return reject(new Error(`openapi validator failed: ${stderr || err.message}`));
      resolve(JSON.parse(stdout));
    });
    child.stdin!.end(JSON.stringify(doc));
  });
}
