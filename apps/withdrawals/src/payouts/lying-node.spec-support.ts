import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** Rewrites one JSON-RPC answer (`result` as the node sent it: hex strings, receipts as JSON objects). */
export type Lie = (method: string, params: unknown[], result: unknown) => unknown;

interface RpcMessage {
  id?: unknown;
  method?: string;
  params?: unknown[];
  result?: unknown;
}

/**
 * A JSON-RPC node in front of a real local node that tells what `lie` makes of its answers (a lying,
 * intercepted or lagging node), for integration specs; with no lie it passes everything on as it came.
 * Batches (the broadcasts) are answered item by item.
 */
export async function lyingNode(target: string): Promise<{ url: string; lie(next?: Lie): void; close(): Promise<void> }> {
  let current: Lie | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      void fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (answer) => {
          let text = await answer.text();
          const lie = current;
          if (lie && answer.ok) {
            const asked = JSON.parse(body) as RpcMessage | RpcMessage[];
            const told = JSON.parse(text) as RpcMessage | RpcMessage[];
            const requests = Array.isArray(asked) ? asked : [asked];
            for (const m of Array.isArray(told) ? told : [told]) {
              const q = requests.find((r) => r.id === m.id);
              if (q?.method && 'result' in m) m.result = lie(q.method, q.params ?? [], m.result);
            }
            text = JSON.stringify(told);
          }
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
        })
        .catch((error: unknown) => res.writeHead(502).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lie: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface RawReceipt {
  status: string;
  blockHash: string;
  logs: { address: string; topics: string[]; data: string; blockHash: string }[];
}

/** Whether a raw receipt holds a log naming `address` as its second indexed topic (a Transfer to it). */
const paysTo = (result: unknown, address: string): result is RawReceipt =>
  result !== null &&
  typeof result === 'object' &&
  (result as RawReceipt).logs.some((l) => l.topics[2]?.toLowerCase().endsWith(address.slice(2).toLowerCase()));

/** A lie about the receipts of transfers to `address` only (other payouts in flight are told the truth). */
export const aboutReceiptsTo =
  (address: string, change: (r: RawReceipt) => void): Lie =>
  (method, _params, result) => {
    if (method === 'eth_getTransactionReceipt' && paysTo(result, address)) change(result);
    return result;
  };

/** The Transfer logs tell one micro more than was moved (a token or node that misreports the amount). */
export const oneMicroMore = (r: RawReceipt): void => {
  for (const l of r.logs) if (l.topics.length === 3) l.data = `0x${(BigInt(l.data) + 1n).toString(16).padStart(64, '0')}`;
};

/** Status 0 (reverted), the logs left as they are. */
export const reverted = (r: RawReceipt): void => {
  r.status = '0x0';
};

/** The receipt from a block of another fork at the same height (a reorg under way, a node on a side chain). */
export const onAnotherFork = (r: RawReceipt): void => {
  r.blockHash = `0x${'f0'.repeat(32)}`;
  for (const l of r.logs) l.blockHash = r.blockHash;
};
