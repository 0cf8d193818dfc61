import { loadConfig } from '../lib/config';
import { logger } from '../lib/logger';
import { createApp } from './app';
import { createDeps } from './deps';

async function main() {
  const config = loadConfig();
  if (config.rateLimits) {
    logger.warn({ rateLimits: config.rateLimits }, 'RATE_LIMITS is set: the spec rate limits are overridden (benchmarks and load tests only)');
  }
  const deps = await createDeps(config);
  const server = createApp(deps).listen(config.port, config.host, () => logger.info({ port: config.port, host: config.host }, 'API listening'));
  server.keepAliveTimeout = 65_000;
  const stop = () => {
    server.close(() => void deps.close().then(() => process.exit(0)));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  logger.error({ err }, 'API failed to start');
  process.exit(1);
});
