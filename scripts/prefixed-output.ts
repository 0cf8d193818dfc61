// Prefixed, coloured lines for the `npm start` supervisor: `[api]  …`, `[worker:ticketing]  …`.
const PALETTE = [36, 32, 33, 34, 35, 96, 92, 93, 94, 95];
const FIXED: Record<string, number> = { start: 1, temporal: 35, migrate: 33, api: 32, admin: 37, mail: 94 };

export function createPrefixedOutput(names: string[]) {
  const useColor = !process.env.NO_COLOR && (Boolean(process.stdout.isTTY) || Boolean(process.env.FORCE_COLOR));
  const width = Math.max(...names.map((n) => n.length)) + 2;
  const paint = (code: number, s: string) => (useColor ? `\x1b[${code}m${s}\x1b[0m` : s);
  const colorOf = (name: string) => FIXED[name] ?? PALETTE[Math.max(names.indexOf(name), 0) % PALETTE.length];
  const prefix = (name: string) => paint(colorOf(name), `[${name}]`.padEnd(width));
  const say = (name: string, line: string, stream: NodeJS.WriteStream = process.stdout) => {
    stream.write(`${prefix(name)} ${line}\n`);
  };
  return { paint, prefix, say };
}
