/** Deepest nesting a request may have; contracts need about 4 levels, metadata objects a few more. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a parsed JSON value nests deeper than `max` levels. Iterative on purpose: the validators
 * (class-transformer) recurse, and a body of a few thousand nested objects, well under the size
 * limit, would otherwise overflow the stack and answer 500.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
