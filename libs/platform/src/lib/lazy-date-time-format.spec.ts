import { withLazyDateTimeFormat } from './lazy-date-time-format';

describe('withLazyDateTimeFormat', () => {
  const Real = Intl.DateTimeFormat;
  afterEach(() => Reflect.set(Intl, 'DateTimeFormat', Real));

  it('builds no formatter while @nestjs/common loads; the first timestamp its ConsoleLogger prints builds one', () => {
    let built = 0;
    function Counting(...args: ConstructorParameters<typeof Intl.DateTimeFormat>): Intl.DateTimeFormat {
      built++;
      return new Real(...args);
    }
    Reflect.set(Intl, 'DateTimeFormat', Counting);
    const loaded: { common?: typeof import('@nestjs/common') } = {};
    jest.isolateModules(() => {
      loaded.common = withLazyDateTimeFormat(() => require('@nestjs/common') as typeof import('@nestjs/common'));
    });
    const { common } = loaded;
    if (!common) throw new Error('@nestjs/common did not load');
    expect(built).toBe(0);
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let printed: string;
    try {
      new common.ConsoleLogger('Spec', { colors: false }).log('hello');
      printed = write.mock.calls.map(([chunk]) => String(chunk)).join('');
    } finally {
      write.mockRestore();
    }
    expect(built).toBe(1);
    expect(printed).toMatch(/\d{1,2}:\d{2}:\d{2}.*LOG \[Spec\] hello/);
  });

  it('formats as the real formatter, and restores the global, also when loading throws', () => {
    const at = Date.UTC(2026, 10, 26, 13, 5, 9);
    const options: Intl.DateTimeFormatOptions = { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'long' };
    const lazy = withLazyDateTimeFormat(() => new Intl.DateTimeFormat('pt-BR', options));
    expect(Intl.DateTimeFormat).toBe(Real);
    expect(lazy.format(at)).toBe(new Real('pt-BR', options).format(at));
    expect(lazy.formatToParts(at)).toEqual(new Real('pt-BR', options).formatToParts(at));
    expect(lazy.resolvedOptions().locale).toBe('pt-BR');
    expect(lazy instanceof Real).toBe(true);
    expect(() =>
      withLazyDateTimeFormat(() => {
        throw new Error('load failed');
      }),
    ).toThrow('load failed');
    expect(Intl.DateTimeFormat).toBe(Real);
  });
});
