// Every workflow of every queue, for tools that look at all of them at once (replay
// tests). Workers never bundle this file: each bundles its own queue's entry in
// workflows/queues/ (see workers/registry.ts).
export * from './queues/ticketing';
export * from './queues/webhooks';
export * from './queues/push';
export * from './queues/onboarding';
export * from './queues/platform';
