// Long-running commands (simulator, serve) run until SIGINT or SIGTERM, then close what they opened and exit 0.

/** Resolves on the first SIGINT or SIGTERM, and stops listening for both. */
export function untilStopped(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
