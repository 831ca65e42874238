import * as undici from 'undici';
import { Pool } from './undici-pool';

describe('Pool', () => {
  it("is the class undici's index exports, with its request API (a new undici that moves a file fails here)", () => {
    expect(Pool).toBe(undici.Pool);
    const api = (o: object) => ['request', 'stream', 'pipeline', 'connect', 'upgrade'].map((name) => Reflect.get(o, name) as unknown);
    const pool = new Pool('http://127.0.0.1:9');
    expect(api(pool)).toEqual(api(undici.Dispatcher.prototype));
    expect(api(pool).every((f) => typeof f === 'function')).toBe(true);
    void pool.destroy();
  });
});
