// A promise raced against a timer: for waits on something that has no deadline of its
// own (a workflow's result), so that a test fails with a message instead of hanging.

/**
 * Resolves or rejects as `promise` does; rejects with an Error whose message is
 * `message()` (asked when the time is up) once `timeoutMs` has passed first.
 */
export async function within<T>(promise: Promise<T>, timeoutMs: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
