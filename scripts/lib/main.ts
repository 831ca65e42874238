/**
 * Runs a script's `main`, then exits at once (the schema engine leaves a 10 s timer that would keep Node
 * alive): with main's code when it answers a number, else 0; with 1 after `<label>: <message>` when it throws.
 */
export function runMain(
  label: string,
  main: () => Promise<unknown>,
  message = (e: unknown) => (e instanceof Error ? e.message : String(e)),
): void {
  main().then(
    (code) => process.exit(typeof code === 'number' ? code : 0),
    (error: unknown) => {
      console.error(`${label}: ${message(error)}`);
      process.exit(1);
    },
  );
}
