// The demo credentials block `npm start` prints once the API is healthy. The API key is
// a secret: with NODE_ENV=production it never reaches the output (which is the log of
// whatever runs `npm start`); `npm run admin -- bootstrap` prints it on request.
export const HIDDEN_KEY = '(hidden: NODE_ENV=production; `npm run admin -- bootstrap` prints it)';

/** The bootstrap JSON's secrets: API keys, the push demo password, the platform tokens. */
const SECRET_FIELDS = new Set(['apiKey', 'password', 'adminToken', 'agentToken']);

/** The bootstrap JSON with every apiKey (and the push demo password, the platform tokens) replaced when `production`; text that is not JSON is withheld there. */
export function demoCredentialsText(json: string, production: boolean): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return production ? '(demo credentials withheld: unexpected output of the bootstrap)' : json;
  }
  const replacer = (k: string, v: unknown) => (production && SECRET_FIELDS.has(k) ? HIDDEN_KEY : v);
  return JSON.stringify(parsed, replacer, 2);
}

export function printDemoCredentials(json: string, o: { paint: (code: number, s: string) => string; production: boolean }): void {
  const bar = '═'.repeat(60);
  console.log(`\n${o.paint(1, bar)}\n${o.paint(1, 'Demo credentials:')}\n${o.paint(32, demoCredentialsText(json, o.production))}`);
  console.log(o.paint(1, bar));
}
