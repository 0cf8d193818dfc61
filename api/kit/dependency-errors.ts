// Which errors mean "a dependency is down" (PostgreSQL, Redis, Temporal, a worker) rather
// than a bug: the error middleware answers them 503 service_unavailable with Retry-After
// (docs/reliability.md, "Failures and hostile input"); anything else unexpected stays a 500.
import { TemporalDeadlineExceeded } from '../../lib/temporal/deadline';

// PostgreSQL SQLSTATEs: class 08 (connection exception), 53 (insufficient resources),
// 57P01-57P05 (admin/crash shutdown, cannot connect now, idle session timeout), 57014
// (statement_timeout: a stuck server), 40001/40P01 are answered by retries elsewhere.
const PG_UNAVAILABLE = /^(08|53|57P0|57014|58)/;
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
// gRPC status codes of the Temporal client: UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, CANCELLED
const GRPC_UNAVAILABLE = new Set([14, 4, 8, 1]);
const MESSAGES = [
  /Connection terminated/i, // node-postgres: the server went away mid-query
  /timeout exceeded when trying to connect/i, // pg-pool connectionTimeoutMillis
  /Client has encountered a connection error/i,
  /Connection is closed/i, // ioredis
  /Reached the max retries per request limit/i, // ioredis MaxRetriesPerRequestError
  /Command timed out/i, // ioredis commandTimeout
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /Failed to connect before the deadline/i, // Temporal connection
];

export function isDependencyDown(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; name?: unknown };
  if (typeof e.code === 'string' && (NET_CODES.has(e.code) || PG_UNAVAILABLE.test(e.code))) return true;
  if (typeof e.code === 'number' && GRPC_UNAVAILABLE.has(e.code) && /ServiceError|grpc/i.test(`${e.name} ${e.message}`)) return true;
  if (e.name === 'ServiceError') return true; // Temporal client: the RPC itself failed
  if (err instanceof TemporalDeadlineExceeded) return true; // no answer within the request's bound
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  return isDependencyDown(e.driverError, depth + 1) || isDependencyDown(e.cause, depth + 1);
}
