/**
 * Runs a script's `main` (an async function: it throws only by rejecting), then exits at once (the schema engine leaves
 * a 10 s timer): with main's code when it answers a number, else 0; with 1 after `<label>: <message>` on a throw.
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
