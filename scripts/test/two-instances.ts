/**
 * A step of `npm test`: the concurrency proofs and the feed's suite again against two instances of every app
 * (same broker, database and consumer groups), requests to both gateways in turn; plus one check: every
 * service group had two members meanwhile, and both gateways answered partner requests.
 */
import { pollUntil } from '../../libs/testing/src/lib/poll';
import { SERVICES } from '../lib/services';
import { serviceGroups } from '../stack/consumer-groups';
import { RunningStack, StackOptions, startApps } from '../stack/stack';

export interface Totals {
  passed: number;
  failed: number;
}

const SUITES = ['tools/e2e/src/concurrency', 'tools/e2e/src/events-feed'];

/** Partner requests a gateway has answered (its http_request_duration_seconds_count samples, summed). */
async function answeredRequests(stack: RunningStack): Promise<number> {
  const text = await (await fetch(`${stack.adminUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('http_request_duration_seconds_count{') && l.includes('route="/partner/'))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

export async function twoInstances(
  stack: RunningStack,
  options: StackOptions,
  kafkaPort: number,
  runJest: (label: string, args: string[], env: NodeJS.ProcessEnv) => Promise<Totals>,
  env: NodeJS.ProcessEnv,
): Promise<Totals> {
  const label = 'two instances of every app: each service group had two members, both gateways served';
  let second: RunningStack | undefined;
  try {
    second = await startApps(options, 1);
    // Until each service's second instance is in its groups (partitions shared), with a deadline.
    const groupMembers = () => serviceGroups(kafkaPort);
    const twoEach = (members: Record<string, number>) => Object.values(members).every((n) => n >= 2);
    const poll = { timeoutMs: 60_000, intervalMs: 500 };
    const members = await pollUntil('two members in every group', groupMembers, twoEach, poll).catch(groupMembers);
    const before = await Promise.all([answeredRequests(stack), answeredRequests(second)]);
    const suites = await runJest('e2e-two-instances', ['-c', 'tools/e2e/jest.e2e.config.js', '--runInBand', ...SUITES], {
      ...env,
      GATEWAY_URLS: `${stack.gatewayUrl},${second.gatewayUrl}`,
      // Twelve Node processes on 2 cores: half the requests in flight keeps answers inside REQUEST_TIMEOUT_MS.
      E2E_IN_FLIGHT: '25',
    });
    const after = await Promise.all([answeredRequests(stack), answeredRequests(second)]);
    const problems: string[] = [];
    const groups = Object.keys(members);
    if (groups.length < SERVICES.length) problems.push(`service groups found: ${groups.join(', ')}`);
    const single = Object.entries(members).filter(([, n]) => n < 2);
    if (single.length > 0) problems.push(`groups without a second member: ${single.map(([g, n]) => `${g} (${n})`).join(', ')}`);
    if (!(after[0] > before[0] && after[1] > before[1]))
      problems.push(`partner requests answered per gateway: ${before.join(', ')} -> ${after.join(', ')}`);
    console.log(`${label}: ${problems.length === 0 ? `passed (${JSON.stringify(members)})` : `FAILED (${problems.join('; ')})`}`);
    return { passed: suites.passed + (problems.length === 0 ? 1 : 0), failed: suites.failed + (problems.length === 0 ? 0 : 1) };
  } catch (error) {
    console.log(`${label}: FAILED (${(error as Error).message})`);
    return { passed: 0, failed: 1 };
  } finally {
    await second?.stop();
  }
}
