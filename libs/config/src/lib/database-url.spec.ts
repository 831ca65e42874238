import { withDatabasePassword } from './database-url';

describe('withDatabasePassword', () => {
  it('puts the password (read from a file) into a URL that carries none, encoded', () => {
    expect(withDatabasePassword('postgresql://svc_gateway@postgres:5432/partner?sslmode=require', 'p@ss/w:rd')).toBe(
      'postgresql://svc_gateway:p%40ss%2Fw%3Ard@postgres:5432/partner?sslmode=require',
    );
    expect(new URL(withDatabasePassword('postgresql://svc_gateway@postgres:5432/partner', 'p@ss/w:rd')).password).toBe('p%40ss%2Fw%3Ard');
  });

  it('leaves the URL as it is without one', () => {
    expect(withDatabasePassword('postgresql://app:secret@db:5432/partner', '')).toBe('postgresql://app:secret@db:5432/partner');
    expect(withDatabasePassword('postgresql://app@db:5432/partner', undefined)).toBe('postgresql://app@db:5432/partner');
  });
});
