import { isDictName } from '@partner/contracts';
import { sandboxHolderName } from './sandbox-holder-name';

describe('sandboxHolderName', () => {
  it('is a name DICT takes, the same for a CPF every time', () => {
    for (const document of ['52998224725', '00000000191', '98765432100', '39053344705']) {
      const name = sandboxHolderName(document);
      expect(isDictName(name)).toBe(true);
      expect(sandboxHolderName(document)).toBe(name);
    }
    expect(sandboxHolderName('52998224725')).toBe('Felipe Costa Sandbox');
  });
});
