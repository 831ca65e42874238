/**
 * The project runs kafkajs 2.2.4 (its last release) with one reviewed patch, `patches/kafkajs+2.2.4.patch`,
 * applied at install by patch-package (the root `postinstall`; the image and the runtime tree apply it
 * explicitly, as they install with `--ignore-scripts`). As released, kafkajs arms a 1 ms timer on every
 * idle broker connection, forever: about 2 % of a core per app with no traffic. Why the patch and how the
 * client's risk is contained: docs/adr/0027-kafkajs-risk-and-a-way-out.md.
 *
 * A tree installed without the patch must not run silently, so every client is built only after this
 * check passes (`kafkaClientConfig`): the version, and the patched behaviour itself on a bare queue.
 */

/** The version the patch is written against (package.json pins it exactly). */
export const KAFKAJS_VERSION = '2.2.4';

/** The fields of kafkajs's RequestQueue (kafkajs/src/network/requestQueue/index.js) the check reads. */
export interface RequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  scheduleCheckPendingRequests(): void;
  checkPendingRequests(): void;
  fulfillRequest(response: { correlationId: number; payload: unknown; size: number }): void;
  destroy(): void;
}

/** The class: made per broker connection with its options (clientId, broker, logger, timeouts). */
export type RequestQueueClass = new (options: object) => RequestQueue;

/** kafkajs's RequestQueue class (not part of its public API, hence the deep path). */
export const kafkajsRequestQueue = (): RequestQueueClass => require('kafkajs/src/network/requestQueue') as RequestQueueClass;

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A queue as a broker connection makes one, for the spec and the check. */
export const requestQueue = (RequestQueue: RequestQueueClass = kafkajsRequestQueue()): RequestQueue =>
  new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'kafkajs-patch-check',
    broker: 'none:9092',
    logger: silent,
  });

/** What is wrong with the installed kafkajs, or null when it is the patched 2.2.4. */
export function kafkajsPatchProblem(
  version: string = (require('kafkajs/package.json') as { version: string }).version,
  RequestQueue: RequestQueueClass = kafkajsRequestQueue(),
): string | null {
  if (version !== KAFKAJS_VERSION) return `kafkajs ${version} is installed; the project runs ${KAFKAJS_VERSION} with its patch`;
  const queue = requestQueue(RequestQueue);
  try {
    queue.scheduleCheckPendingRequests(); // an idle connection: nothing pending, nothing throttled
    if (queue.throttleCheckTimeoutId !== null) return `kafkajs ${version} is installed without patches/kafkajs+${KAFKAJS_VERSION}.patch`;
    return null;
  } finally {
    queue.destroy(); // clears the timer an unpatched queue armed
  }
}

let checked = false;

/** Throws, once per process at most, unless the installed kafkajs is the patched one; cheap after the first call. */
export function assertKafkajsPatched(): void {
  if (checked) return;
  const problem = kafkajsPatchProblem();
  if (problem) {
    throw new Error(
      `${problem}. Run \`npm install\` (its postinstall applies the patch) or \`npx patch-package\`; ` +
        'see docs/adr/0027-kafkajs-risk-and-a-way-out.md',
    );
  }
  checked = true;
}
