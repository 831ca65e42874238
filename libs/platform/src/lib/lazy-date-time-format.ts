/**
 * Runs `load` (a require) with `Intl.DateTimeFormat` deferred: a formatter built while it runs is built
 * for real on its first use, then behaves as the real one. The global is restored when `load` returns.
 *
 * Why: @nestjs/common builds one as it loads (ConsoleLogger's timestamps, at module scope), and building a
 * formatter maps ICU's locale and time-zone data in from the node binary: 5 MB of every app's RSS, for a
 * logger the apps hand over to pino before it prints anything. The pages
 * are the binary's, shared by the six apps, so the machine saves less than the sum of their RSS shows.
 */
export function withLazyDateTimeFormat<T>(load: () => T): T {
  const Real = Intl.DateTimeFormat;
  function Lazy(...args: ConstructorParameters<typeof Intl.DateTimeFormat>): Intl.DateTimeFormat {
    let real: Intl.DateTimeFormat | undefined;
    const target = () => (real ??= new Real(...args));
    return new Proxy(Object.create(Real.prototype) as Intl.DateTimeFormat, {
      get: (_, key) => {
        const t = target();
        const value = Reflect.get(t, key, t) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
      },
    });
  }
  Reflect.set(Intl, 'DateTimeFormat', Lazy);
  try {
    return load();
  } finally {
    Reflect.set(Intl, 'DateTimeFormat', Real);
  }
}
