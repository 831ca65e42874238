import { IsOptional, IsString } from 'class-validator';
import { CommaSeparated, Flag, IntInRange, OperatorIspb, PLACEHOLDER_ISPB, PollIntervalMs, SimulatedDelayMs } from './config.decorators';
import { ConfigError, loadConfig } from './load-config';

class SampleConfig {
  @IntInRange(2, 5)
  WORKERS: number = 3;

  @SimulatedDelayMs()
  STEP_DELAY_MS: number = 1_000;

  @PollIntervalMs()
  TICK_MS: number = 250;

  @Flag()
  ENABLED: boolean = true;

  @Flag()
  DISABLED: boolean = false;

  @CommaSeparated()
  @IsString({ each: true })
  NAMES: string[] = ['a'];

  @CommaSeparated((item) => item.toLowerCase())
  @IsString({ each: true })
  ADDRESSES: string[] = [];
}

const problemsOf = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(SampleConfig, env);
    return '';
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
};

describe('config decorators', () => {
  it('keep the defaults of unset variables', () => {
    expect({ ...loadConfig(SampleConfig, {}) }).toEqual({
      WORKERS: 3,
      STEP_DELAY_MS: 1_000,
      TICK_MS: 250,
      ENABLED: true,
      DISABLED: false,
      NAMES: ['a'],
      ADDRESSES: [],
    });
  });

  it('IntInRange: a whole number within the bounds, class-validator naming the variable otherwise', () => {
    expect(loadConfig(SampleConfig, { WORKERS: '2' }).WORKERS).toBe(2);
    expect(loadConfig(SampleConfig, { WORKERS: '5' }).WORKERS).toBe(5);
    expect(problemsOf({ WORKERS: '1' })).toContain('WORKERS: WORKERS must not be less than 2');
    expect(problemsOf({ WORKERS: '6' })).toContain('WORKERS: WORKERS must not be greater than 5');
    expect(problemsOf({ WORKERS: '2.5' })).toContain('WORKERS: WORKERS must be an integer number');
  });

  it('SimulatedDelayMs: none to an hour; PollIntervalMs: 10 ms to a minute', () => {
    expect(loadConfig(SampleConfig, { STEP_DELAY_MS: '0', TICK_MS: '10' })).toMatchObject({ STEP_DELAY_MS: 0, TICK_MS: 10 });
    expect(loadConfig(SampleConfig, { STEP_DELAY_MS: '3600000', TICK_MS: '60000' })).toMatchObject({
      STEP_DELAY_MS: 3_600_000,
      TICK_MS: 60_000,
    });
    expect(problemsOf({ STEP_DELAY_MS: '-1' })).toContain('STEP_DELAY_MS must not be less than 0');
    expect(problemsOf({ STEP_DELAY_MS: '3600001' })).toContain('STEP_DELAY_MS must not be greater than 3600000');
    expect(problemsOf({ TICK_MS: '9' })).toContain('TICK_MS must not be less than 10');
    expect(problemsOf({ TICK_MS: '60001' })).toContain('TICK_MS must not be greater than 60000');
  });

  it('Flag: only "true" is true ("false" is false, not Boolean("false"))', () => {
    expect(loadConfig(SampleConfig, { ENABLED: 'false', DISABLED: 'true' })).toMatchObject({ ENABLED: false, DISABLED: true });
    expect(loadConfig(SampleConfig, { ENABLED: 'yes', DISABLED: '' })).toMatchObject({ ENABLED: false, DISABLED: false });
  });

  it('CommaSeparated: trimmed items, empty ones dropped, each adjusted when asked', () => {
    expect(loadConfig(SampleConfig, { NAMES: ' x, ,y ,', ADDRESSES: '0xAB, 0xCd' })).toMatchObject({
      NAMES: ['x', 'y'],
      ADDRESSES: ['0xab', '0xcd'],
    });
  });
});

class IspbConfig {
  @IsString()
  NODE_ENV: string = 'development';

  @Flag()
  LOCAL_COUNTERPARTIES: boolean = false;

  @OperatorIspb('DICT_ISPB', 'OPERATOR_ISPB')
  DICT_ISPB: string = '';

  @IsString()
  @IsOptional()
  OPERATOR_ISPB?: string;
}

describe('OperatorIspb', () => {
  const load = (env: NodeJS.ProcessEnv) => loadConfig(IspbConfig, env);

  it("refuses the stacks' placeholder 99999999 in production, unless the counterparties are test servers", () => {
    expect(() => load({ NODE_ENV: 'production', DICT_ISPB: PLACEHOLDER_ISPB })).toThrow(
      /DICT_ISPB=99999999 is the stacks' placeholder, refused with NODE_ENV=production/,
    );
    expect(load({ NODE_ENV: 'production', DICT_ISPB: PLACEHOLDER_ISPB, LOCAL_COUNTERPARTIES: 'true' }).DICT_ISPB).toBe(PLACEHOLDER_ISPB);
    expect(load({ NODE_ENV: 'development', DICT_ISPB: PLACEHOLDER_ISPB }).DICT_ISPB).toBe(PLACEHOLDER_ISPB);
    expect(load({ NODE_ENV: 'production', DICT_ISPB: '60701190' }).DICT_ISPB).toBe('60701190');
  });

  it('refuses two settings that name different ISPBs, and takes the same one or none', () => {
    expect(() => load({ NODE_ENV: 'production', DICT_ISPB: '60701190', OPERATOR_ISPB: '99999999' })).toThrow(
      /DICT_ISPB \(60701190\) and OPERATOR_ISPB \(99999999\) must be the same ISPB/,
    );
    expect(load({ NODE_ENV: 'production', DICT_ISPB: '60701190', OPERATOR_ISPB: '60701190' }).OPERATOR_ISPB).toBe('60701190');
    expect(() => load({ DICT_ISPB: '6070119' })).toThrow(/DICT_ISPB must be the operator's ISPB, 8 digits/);
  });
});
