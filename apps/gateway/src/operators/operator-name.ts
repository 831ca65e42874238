import type { OperatorRequest } from './admin-key.guard';

/** Who asks or decides: the operator key (its id, and `name (prefix)`), and the client's address. */
export interface Actor {
  keyId: string;
  name: string;
  address: string | null;
}

/** The client's address as the gateway read it (TRUST_PROXY_HOPS), bounded, as the records keep it. */
export const clientAddressOf = (request: { ip?: string }): string | null => request.ip?.slice(0, 64) ?? null;

/** Who asked, as a record names an operator key: its name and prefix (never enough of the key to use it). */
export function operatorName(request: OperatorRequest): string {
  const operator = request.operator;
  return operator ? `${operator.name} (${operator.prefix})` : 'operator';
}

/** The operator key behind a call, as an approval records who asked or decided: its id, its name, the client's address. */
export function actorOf(request: OperatorRequest): Actor {
  const operator = request.operator;
  if (!operator) throw new Error('an operator route ran without an operator (OperatorAuth must guard it)');
  return { keyId: operator.id, name: operatorName(request), address: clientAddressOf(request) };
}
