/** `screening ...`: the screening of withdrawal destinations through the operator API (docs/operations/screening.md). */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { CommandContext, Commands, defined, print } from '../command-context';

/**
 * The addresses of a list file: one per line, as OFAC-derived lists publish them (0xB10C's
 * sanctioned_addresses_ETH.txt); blank lines and `#` comments skipped. Any other line is refused with its
 * number, so a file of the wrong kind is never loaded in part.
 */
export function addressesOf(text: string): string[] {
  const addresses: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (!/^0x[0-9a-fA-F]{40}$/.test(line)) throw new Error(`line ${i + 1} is not an EVM address: ${line.slice(0, 60)}`);
    addresses.push(line);
  });
  if (addresses.length === 0) throw new Error('the file holds no address');
  return addresses;
}

/** `--published-at`: a date (2026-11-28) or a date and time, read as UTC; Unix seconds out. */
export function unixSecondsOf(value: string): number {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) throw new Error(`--published-at must be a date such as 2026-11-28 (UTC), not ${value}`);
  return Math.floor(ms / 1000);
}

/**
 * `screening update FILE [--published-at DATE] [--source TEXT]`: a new SDN copy from a file. Without
 * --published-at, the file's modification time (a list downloaded today is today's), said on stderr.
 */
async function update(c: CommandContext): Promise<number> {
  const [file] = c.args;
  if (!file) throw new Error('screening update needs the file of addresses (see --help)');
  const addresses = addressesOf(readFileSync(file, 'utf8'));
  const given = c.flags['published-at'];
  const published_at = given ? unixSecondsOf(given) : Math.floor(statSync(file).mtimeMs / 1000);
  if (!given)
    console.error(
      `published_at: ${new Date(published_at * 1000).toISOString()} (the file's modification time; --published-at to say otherwise)`,
    );
  const body = { source: c.flags.source ?? basename(file), published_at, addresses };
  return print(await c.operatorApi().PUT('/admin/v1/screening/ofac-sdn', { body }));
}

/** The address a deny-list command names. */
function addressArg(c: CommandContext, command: string): string {
  const [address] = c.args;
  if (!address) throw new Error(`screening ${command} needs the address (see --help)`);
  return address;
}

export const SCREENING_COMMANDS: Commands = {
  'screening show': async (c) => print(await c.operatorApi().GET('/admin/v1/screening')),
  'screening update': update,
  'screening deny-list': async (c) =>
    print(
      await c
        .operatorApi()
        .GET('/admin/v1/screening/deny-list', { params: { query: defined({ limit: c.number('limit'), cursor: c.flags.cursor }) } }),
    ),
  'screening deny': async (c) =>
    print(await c.operatorApi().POST('/admin/v1/screening/deny-list', { body: { address: addressArg(c, 'deny'), note: c.need('note') } })),
  'screening undeny': async (c) =>
    print(
      await c.operatorApi().DELETE('/admin/v1/screening/deny-list/{address}', { params: { path: { address: addressArg(c, 'undeny') } } }),
    ),
};
