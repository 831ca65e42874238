/** A devolução as the Pix provider reports it (the Pix API's `Devolucao`): what the refund became there. */
export interface ProviderDevolucao {
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  /** The return's id in the SPI (pacs.004 RtrId). */
  rtrId: string;
  /** Why it reached that status, when the provider says (NAO_REALIZADO's reason). */
  motivo?: string;
}

/**
 * What a call to the provider came to: `answered` with the devolução; `refused` (the request is invalid to it
 * for good: over the Pix's amount, past its window, a Pix it does not know: final, nothing was returned);
 * `not_found` (a read of a devolução it has no record of: it was never accepted); `unavailable` (no answer
 * that says anything: the network, a 5xx, a 429, credentials refused; try again, `retryAfterMs` when it said).
 */
export type RefundCall =
  | { outcome: 'answered'; devolucao: ProviderDevolucao }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'not_found' }
  | { outcome: 'unavailable'; reason: string; retryAfterMs?: number };

/** A refund as the provider knows it: the inflow's e2eid and the devolução's id there (ours, chosen when created). */
export interface RefundRef {
  endToEndId: string;
  providerId: string;
}

/**
 * The Pix provider's returns (devoluções) of received Pix. Production: the provider's Pix API
 * (PixApiRefunds, vendor/bacen-pix-api). Requesting one id twice is not safe (the API refuses a reused id),
 * so a caller that did not get an answer reads the devolução before asking again.
 */
export abstract class PixRefunds {
  /** Asks for a devolução of `amountCents` of the Pix, with `description` for the payer. */
  abstract request(ref: RefundRef, amountCents: bigint, description: string): Promise<RefundCall>;

  /** How a devolução asked for before stands. */
  abstract read(ref: RefundRef): Promise<RefundCall>;
}
