/**
 * Where the local stacks' DICT test server listens (libs/dict-test-server starts it): `npm start`'s
 * (DICT_TEST_PORT to move it), `npm test`'s (TEST_DICT_PORT) and the chaos run's (CHAOS_DICT_PORT).
 */
const envPort = (name: string, fallback: number): number => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a TCP port, got "${value}"`);
  return port;
};

export const DEV_DICT_PORT = envPort('DICT_TEST_PORT', 8443);
export const TEST_DICT_PORT = envPort('TEST_DICT_PORT', 18443);
export const CHAOS_DICT_PORT = envPort('CHAOS_DICT_PORT', 58443);
