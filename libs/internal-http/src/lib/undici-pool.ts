import type { Pool as UndiciPool } from 'undici';

/**
 * undici's `Pool` without undici's index, which also loads fetch, WebSocket, the cache and the mock agent
 * (about a hundred modules and their heap in every app, for nothing) around the one class the direct
 * queries and replies use. The index's own wiring, repeated: the request API (`request`, `stream`...) goes
 * onto the Dispatcher prototype (idempotent: the same functions when the index is loaded too).
 * undici-pool.spec.ts holds it to the index's class and API.
 */
const Dispatcher = require('undici/lib/dispatcher/dispatcher') as { prototype: object };
Object.assign(Dispatcher.prototype, require('undici/lib/api') as object);
export const Pool = require('undici/lib/dispatcher/pool') as typeof UndiciPool;
export type Pool = UndiciPool;
