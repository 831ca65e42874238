import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { APP_NAMES, GATEWAY, pgSchemaOf, SERVICE_CATALOGUE, SERVICE_NAMES, ServicePings, scopeTagOf } from './services.catalogue';
import { Topics } from './topics';

// The catalogue against what it describes: the Nx projects, the prisma schemas and the topics. What reads
// it (lint, scripts, compose checks, e2e) trusts it, so a service added or renamed in one place only fails here.
const repoRoot = resolve(__dirname, '..', '..', '..', '..');
const project = (dir: string): { name: string; tags?: string[] } =>
  JSON.parse(readFileSync(join(repoRoot, 'apps', dir, 'project.json'), 'utf8'));

describe('the catalogue of the apps', () => {
  it('lists the services in start order, then the gateway', () => {
    expect(APP_NAMES).toEqual([...SERVICE_NAMES, GATEWAY.name]);
    expect(new Set(APP_NAMES).size).toBe(APP_NAMES.length);
  });

  it.each(APP_NAMES)('%s: is the Nx project of that name, tagged as an app of its own scope', (app) => {
    const { name, tags } = project(app);
    expect({ name, tags }).toEqual({ name: app, tags: expect.arrayContaining(['type:app', scopeTagOf(app)]) });
  });

  it('names every app project', () => {
    const apps = readdirSync(join(repoRoot, 'apps')).filter((dir) => existsSync(join(repoRoot, 'apps', dir, 'project.json')));
    const served = apps.map(project).filter((p) => p.tags?.includes('type:app'));
    expect(served.map((p) => p.name).sort()).toEqual([...APP_NAMES].sort());
  });

  it.each(APP_NAMES)('%s: has its prisma schema', (app) => {
    expect(existsSync(join(repoRoot, 'prisma', app, 'schema.prisma'))).toBe(true);
  });

  it('gives each app a plain PostgreSQL schema name, and refuses a name that would need quoting', () => {
    expect(APP_NAMES.map(pgSchemaOf)).toEqual(['withdrawals', 'events', 'pix_keys', 'customers', 'inflows', 'gateway']);
    expect(() => pgSchemaOf('2fa-codes')).toThrow('does not give a plain PostgreSQL schema name');
  });

  it.each(SERVICE_NAMES)('%s: an outbox exactly when its schema has the outbox table', (name) => {
    const schema = readFileSync(join(repoRoot, 'prisma', name, 'schema.prisma'), 'utf8');
    expect({ name, outbox: SERVICE_CATALOGUE[name].outbox }).toEqual({ name, outbox: /@@map\("outbox_messages"\)/.test(schema) });
  });

  it.each(SERVICE_NAMES)('%s: is pinged on a query topic of its own', (name) => {
    expect(Object.values(Topics)).toContain(ServicePings[name]);
    expect(ServicePings[name]).toBe(`${name}.query.ping.v1`);
  });

  it('gives the services one block of health ports right after the gateway admin port (the scripts shift the block for a test stack)', () => {
    expect(SERVICE_NAMES.map((name) => SERVICE_CATALOGUE[name].healthPort)).toEqual(SERVICE_NAMES.map((_, i) => GATEWAY.adminPort + i + 1));
    expect(GATEWAY.port).not.toBe(GATEWAY.adminPort);
  });
});
