// Every task queue this code base runs; `npm start` starts one worker for each.
export const TASK_QUEUES = ['ticketing', 'webhooks'] as const;
export type TaskQueue = (typeof TASK_QUEUES)[number];
