import { createHash } from 'node:crypto';
import { ErrorCode, fail, ok, Reply } from '@partner/contracts';

/**
 * What identifies "the same request" for an idempotency key: the SHA-256 (hex) of the JSON of its
 * canonical form, the fields that make the request (never the key) in a fixed order and in their normal
 * spelling. Stored with the key (or recomputed from what is stored) and compared when the key comes
 * again. Changing how a command's canonical form is built changes its stored fingerprints: that needs
 * a migration recomputing them.
 */
export function requestFingerprint(canonical: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** A domain refusal raised inside a command's transaction so that it rolls back (the key stays unbound), then answered. */
export class Rejected<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Raised inside a transaction whose decision another one made stale: it rolls back and the command runs again. */
export class Superseded extends Error {}

/** What one attempt at a keyed command did: acted now (`done`, its result), or found the key taken by an earlier request. */
export type KeyedAttempt<R, S> = { done: R } | { taken: S | null };

/**
 * A command that takes an idempotency key, as each service stores it. `S` is the stored record of a key; `C`
 * the codes the command may be refused with (its topic's refusals, `refusalCodes`).
 */
export interface IdempotentCommand<R, S, C extends ErrorCode = ErrorCode> {
  /**
   * The codes this command may be refused with: a `Rejected` thrown inside it, or a refusal recalled for it,
   * is answered with its code only when it is one of them (a thrown error carries no type; this is where
   * the code is checked against the command's own). Usually `requestRefusalsOf(topic)`.
   */
  refusalCodes: readonly C[];
  /** The key, for errors. */
  idempotencyKey: string;
  /** The fingerprint of this request (requestFingerprint of its canonical form). */
  fingerprint: string;
  /**
   * Claims the key and acts, in one transaction: the result, or the record already holding the key
   * (null when the attempt could not see it, e.g. committed after its snapshot). May throw `Rejected`
   * (answered as that error, nothing bound) or `Superseded` (attempted again).
   */
  attempt(): Promise<KeyedAttempt<R, S>>;
  /** The committed record holding the key, read afresh: needed when `attempt` can answer `{ taken: null }`. */
  find?(): Promise<S | null>;
  /** The fingerprint of the request that bound the stored record. */
  fingerprintOf(stored: S): string;
  /** The answer to a retry of the same request: the first answer again (or what it is now). */
  replay(stored: S): R;
  /** How the reused-key refusal names the request ("a different request" unless said). */
  requestNoun?: string;
  /**
   * Where this command's own refusal is kept, when it has an id (commandIdOf): a refusal binds no key, so
   * a copy of the same command delivered again (a redelivery, a retried send) would otherwise be attempted
   * anew and could succeed where its caller was told it failed. With it, the copy answers the refusal again.
   */
  refusals?: RefusalMemory;
}

/** A refused command's answer, kept by the command's id (not by its idempotency key). */
export interface Refusal {
  code: ErrorCode;
  message: string;
  field?: string;
}

export interface RefusalMemory {
  /** This command's refusal, if it was refused before. */
  recall(): Promise<Refusal | null>;
  /** Keeps this command's refusal (a second keep of the same command is ignored). */
  keep(refusal: Refusal): Promise<void>;
}

/**
 * A decision taken on a view another transaction made stale is attempted again this many times. Each
 * retry follows a move that committed in between, so a sound command never gets near it.
 */
const MAX_ATTEMPTS = 8;

/** The refusal of a key already bound to another request: same code, field and message in every service. */
export function keyReused(requestNoun = 'request'): Reply<never, 'idempotency_key_reused'> {
  return fail('idempotency_key_reused', `idempotency_key was already used with a different ${requestNoun}`, 'idempotency_key');
}

/** `code` as one of the command's own refusal codes; any other is a bug in the command, surfaced as an error (never answered). */
function ownRefusal<C extends ErrorCode>(codes: readonly C[], code: ErrorCode): C {
  const own = codes.find((c) => c === code);
  if (own === undefined) throw new Error(`${code} is not a refusal of this command (its refusals: ${codes.join(', ')})`);
  return own;
}

/**
 * The idempotent frame of every command that takes a key: attempt it; a key already taken replays the
 * first answer when the request is the same one (same fingerprint) and is refused as
 * `idempotency_key_reused` when it is another; a `Rejected` attempt is answered with its error (its
 * transaction rolled back, so the key stays free for a corrected retry); a `Superseded` one runs again.
 */
export async function runIdempotent<R, S, C extends ErrorCode>(
  command: IdempotentCommand<R, S, C>,
): Promise<Reply<R, C | 'idempotency_key_reused'>> {
  const refused = ({ code, message, field }: Refusal) => fail(ownRefusal(command.refusalCodes, code), message, field);
  const earlier = await command.refusals?.recall();
  if (earlier) return refused(earlier);
  for (let attempt = 1; ; attempt++) {
    let outcome: KeyedAttempt<R, S>;
    try {
      outcome = await command.attempt();
    } catch (error) {
      if (error instanceof Rejected) {
        const refusal: Refusal = { code: ownRefusal(command.refusalCodes, error.code), message: error.message, field: error.field };
        await command.refusals?.keep(refusal);
        return refused(refusal);
      }
      if (error instanceof Superseded && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
    if ('done' in outcome) return ok(outcome.done);
    const stored = outcome.taken ?? (await command.find?.()) ?? null;
    // Keys are never released once bound, so a taken key without a record is a bug: let it surface.
    if (!stored) throw new Error(`idempotency key ${command.idempotencyKey} was taken, yet no record of it is committed`);
    if (command.fingerprintOf(stored) !== command.fingerprint) return keyReused(command.requestNoun);
    return ok(command.replay(stored));
  }
}
