/**
 * The DICT test server's claims (vendor/bacen-pix-dict-api, `openapi/openapi.yaml`, tag "Claim": createClaim,
 * listClaims, getClaim, acknowledgeClaim, confirmClaim, cancelClaim, completeClaim), for any participant: the one
 * whose certificates the server trusts calls them over HTTP, a spec plays any other through `as(ispb)`.
 *
 * The document's rules, as its descriptions state them:
 *   - only PORTABILITY for CPF and CNPJ keys, both types for PHONE and EMAIL, none for EVP (createClaim's table);
 *     PORTABILITY for the key's owner, OWNERSHIP for another person (ClaimTypeInconsistent);
 *   - one claim not COMPLETED or CANCELLED per key (ClaimAlreadyExistsForKey); the entry is locked meanwhile
 *     (deleteEntry answers EntryLockedByClaim);
 *   - OPEN → WAITING_RESOLUTION (acknowledgeClaim, by the donor) → CONFIRMED (confirmClaim, by the donor: the donor's
 *     entry is removed) → COMPLETED (completeClaim, by the claimer: the claimer's entry is created); CANCELLED from
 *     WAITING_RESOLUTION or CONFIRMED (cancelClaim), each role with the reasons of the document's table;
 *   - DEFAULT_OPERATION only once ResolutionPeriodEnd is past (an ownership confirmation, a portability cancellation
 *     by the donor: ClaimResolutionPeriodNotEnded); an ownership completed only once CompletionPeriodEnd is past;
 *   - each operation idempotent as the document says (the same call on a claim already in its result answers it).
 * The periods: the resolution period is 7 days (the document's examples: ResolutionPeriodEnd 7 days after the
 * claim; the Pix rules' "prazo de resolução"), an ownership's completion period 30 days after that.
 */
import { randomUUID } from 'node:crypto';
import { Problem, lines } from './dict-problem';

export const RESOLUTION_PERIOD_MS = 7 * 86_400_000;
export const OWNERSHIP_COMPLETION_PERIOD_MS = 30 * 86_400_000;

export type ClaimType = 'OWNERSHIP' | 'PORTABILITY';
export type ClaimStatus = 'OPEN' | 'WAITING_RESOLUTION' | 'CONFIRMED' | 'CANCELLED' | 'COMPLETED';

export interface TestClaimAccount {
  participant: string;
  branch: string;
  accountNumber: string;
  accountType: string;
  openingDate: string;
}

export interface TestClaim {
  id: string;
  type: ClaimType;
  key: string;
  keyType: string;
  claimerAccount: TestClaimAccount;
  claimer: { type: string; taxIdNumber: string; name: string };
  donorParticipant: string;
  status: ClaimStatus;
  resolutionPeriodEnd: string;
  completionPeriodEnd?: string;
  lastModified: string;
  confirmReason?: string;
  cancelReason?: string;
  cancelledBy?: 'DONOR' | 'CLAIMER';
  /** completeClaim's RequestId (the claimer's new entry's) and that entry's dates, for a repeated completion. */
  completeRequestId?: string;
  completedEntry?: { creationDate: string; keyOwnershipDate: string };
}

/** What claims need of the server's entries: the key's current holder, and the claimer's entry made at completion. */
export interface ClaimEntries {
  holderOf(key: string): { participant: string; taxIdNumber: string; keyType: string } | undefined;
  remove(key: string): void;
  create(claim: TestClaim, requestId: string): { creationDate: string; keyOwnershipDate: string };
}

/** The filters of listClaims (its query parameters). */
export interface ClaimFilter {
  isDonor?: boolean;
  isClaimer?: boolean;
  status?: ClaimStatus[];
  type?: ClaimType;
  modifiedAfter?: string;
  modifiedBefore?: string;
  limit: number;
}

const OPEN_STATUSES: ClaimStatus[] = ['OPEN', 'WAITING_RESOLUTION', 'CONFIRMED'];

/** Who may confirm with which reason (confirmClaim's table: only the donor confirms). */
const CONFIRM_REASONS: Record<ClaimType, string[]> = {
  OWNERSHIP: ['USER_REQUESTED', 'DEFAULT_OPERATION'],
  PORTABILITY: ['USER_REQUESTED', 'ACCOUNT_CLOSURE'],
};

/** Who may cancel with which reason (cancelClaim's table). */
const CANCEL_REASONS: Record<ClaimType, Record<'DONOR' | 'CLAIMER', string[]>> = {
  OWNERSHIP: { DONOR: ['FRAUD'], CLAIMER: ['USER_REQUESTED', 'ACCOUNT_CLOSURE', 'FRAUD', 'DEFAULT_OPERATION'] },
  PORTABILITY: {
    DONOR: ['USER_REQUESTED', 'FRAUD', 'DEFAULT_OPERATION'],
    CLAIMER: ['USER_REQUESTED', 'ACCOUNT_CLOSURE', 'FRAUD', 'RECONCILIATION'],
  },
};

const forbidden = () => new Problem(403, 'Forbidden', 'Forbidden', 'Participant is not allowed to access this resource');
const notFound = () => new Problem(404, 'NotFound', 'Not found', 'Claim not found');
const invalidOperation = (claim: TestClaim, what: string) =>
  new Problem(400, 'ClaimOperationInvalid', 'Claim operation invalid', `The claim is ${claim.status}: it cannot be ${what}`);

export type ClaimInput = Omit<TestClaim, 'id' | 'donorParticipant' | 'status' | 'resolutionPeriodEnd' | 'lastModified'>;

export class TestClaims {
  readonly claims = new Map<string, TestClaim>();

  constructor(
    private readonly entries: ClaimEntries,
    private readonly now: () => Date,
  ) {}

  /** The claim of `key` not yet COMPLETED or CANCELLED, if any (the entry is locked while there is one). */
  openFor(key: string): TestClaim | undefined {
    return [...this.claims.values()].find((c) => c.key === key && OPEN_STATUSES.includes(c.status));
  }

  create(caller: string, input: ClaimInput): TestClaim {
    if (input.claimerAccount.participant !== caller) throw forbidden();
    const invalid = (detail: string) => new Problem(400, 'ClaimInvalid', 'Claim is invalid', detail);
    if (input.keyType === 'EVP') throw invalid('An EVP key cannot be claimed');
    if (input.type === 'OWNERSHIP' && ['CPF', 'CNPJ'].includes(input.keyType))
      throw invalid('CPF and CNPJ keys cannot be claimed by ownership: only by portability');
    const holder = this.entries.holderOf(input.key);
    if (!holder) throw new Problem(400, 'ClaimKeyNotFound', 'Claim key not found', 'No entry is registered for the claimed key');
    if (holder.keyType !== input.keyType) throw invalid(`The key is of type ${holder.keyType}`);
    if (this.openFor(input.key))
      throw new Problem(
        400,
        'ClaimAlreadyExistsForKey',
        'Claim already exists for key',
        'The key has a claim neither completed nor cancelled',
      );
    const sameOwner = holder.taxIdNumber === input.claimer.taxIdNumber;
    if ((input.type === 'PORTABILITY') !== sameOwner)
      throw new Problem(
        400,
        'ClaimTypeInconsistent',
        'Claim type inconsistent',
        `A ${input.type} claim of a key whose owner is ${sameOwner ? '' : 'not '}the claimer`,
      );
    if (holder.participant === caller && sameOwner)
      throw new Problem(
        400,
        'ClaimResultingEntryAlreadyExists',
        'Claim resulting entry already exists',
        'The key is the claimer’s at this participant already',
      );
    const now = this.now();
    const resolutionEnd = new Date(now.getTime() + RESOLUTION_PERIOD_MS);
    const claim: TestClaim = {
      ...input,
      id: randomUUID(),
      donorParticipant: holder.participant,
      status: 'OPEN',
      resolutionPeriodEnd: resolutionEnd.toISOString(),
      ...(input.type === 'OWNERSHIP'
        ? { completionPeriodEnd: new Date(resolutionEnd.getTime() + OWNERSHIP_COMPLETION_PERIOD_MS).toISOString() }
        : {}),
      lastModified: now.toISOString(),
    };
    this.claims.set(claim.id, claim);
    return claim;
  }

  /** listClaims: the caller's claims by its role, ascending by LastModified, at most `limit`. */
  list(caller: string, filter: ClaimFilter): { claims: TestClaim[]; hasMore: boolean } {
    const roleFilter = filter.isDonor !== undefined || filter.isClaimer !== undefined;
    const matching = [...this.claims.values()]
      .filter((c) => {
        const donor = c.donorParticipant === caller;
        const claimer = c.claimerAccount.participant === caller;
        // Equal IsDonor and IsClaimer are disjunctive (the document); one alone restricts to that role.
        const role = !roleFilter
          ? donor || claimer
          : (filter.isDonor === true && donor) ||
            (filter.isClaimer === true && claimer) ||
            (filter.isDonor === false && filter.isClaimer === undefined && claimer && !donor) ||
            (filter.isClaimer === false && filter.isDonor === undefined && donor && !claimer);
        return (
          role &&
          (!filter.status || filter.status.includes(c.status)) &&
          (!filter.type || filter.type === c.type) &&
          (!filter.modifiedAfter || c.lastModified >= filter.modifiedAfter) &&
          (!filter.modifiedBefore || c.lastModified <= filter.modifiedBefore)
        );
      })
      .sort((a, b) => (a.lastModified < b.lastModified ? -1 : a.lastModified > b.lastModified ? 1 : 0));
    return { claims: matching.slice(0, filter.limit), hasMore: matching.length > filter.limit };
  }

  get(caller: string, id: string): TestClaim {
    const claim = this.claims.get(id);
    if (!claim || (claim.donorParticipant !== caller && claim.claimerAccount.participant !== caller)) throw notFound();
    return claim;
  }

  acknowledge(caller: string, id: string): TestClaim {
    const claim = this.asDonor(caller, id);
    if (claim.status === 'WAITING_RESOLUTION') return claim;
    if (claim.status !== 'OPEN') throw invalidOperation(claim, 'acknowledged');
    return this.move(claim, { status: 'WAITING_RESOLUTION' });
  }

  confirm(caller: string, id: string, reason: string): TestClaim {
    const claim = this.asDonor(caller, id);
    if (claim.status === 'CONFIRMED' && claim.confirmReason === reason) return claim;
    if (claim.status !== 'WAITING_RESOLUTION') throw invalidOperation(claim, 'confirmed');
    if (!CONFIRM_REASONS[claim.type].includes(reason)) throw invalidReason(reason, 'confirm', claim.type, 'DONOR');
    const now = this.now();
    if (claim.type === 'OWNERSHIP' && reason === 'DEFAULT_OPERATION')
      this.periodOver(claim.resolutionPeriodEnd, now, 'ClaimResolutionPeriodNotEnded');
    // The donor's entry leaves DICT with the confirmation (the document: "vínculo da chave com participante doador é removido").
    this.entries.remove(claim.key);
    return this.move(claim, {
      status: 'CONFIRMED',
      confirmReason: reason,
      ...(claim.type === 'OWNERSHIP' && reason === 'USER_REQUESTED' ? { completionPeriodEnd: now.toISOString() } : {}),
    });
  }

  cancel(caller: string, id: string, reason: string): TestClaim {
    const claim = this.get(caller, id);
    const role = claim.donorParticipant === caller ? 'DONOR' : 'CLAIMER';
    if (claim.status === 'CANCELLED' && claim.cancelReason === reason && claim.cancelledBy === role) return claim;
    if (claim.status !== 'WAITING_RESOLUTION' && claim.status !== 'CONFIRMED') throw invalidOperation(claim, 'cancelled');
    if (!CANCEL_REASONS[claim.type][role].includes(reason)) throw invalidReason(reason, 'cancel', claim.type, role);
    if (claim.type === 'PORTABILITY' && reason === 'DEFAULT_OPERATION')
      this.periodOver(claim.resolutionPeriodEnd, this.now(), 'ClaimResolutionPeriodNotEnded');
    return this.move(claim, { status: 'CANCELLED', cancelReason: reason, cancelledBy: role });
  }

  /** completeClaim: the claimer's entry is created (with `requestId`, as createEntry's); the claim and the entry's dates answered. */
  complete(caller: string, id: string, requestId: string): { claim: TestClaim; entry: { creationDate: string; keyOwnershipDate: string } } {
    const claim = this.get(caller, id);
    if (claim.claimerAccount.participant !== caller) throw forbidden();
    // The document: completeClaim is idempotent as createEntry is (the same RequestId answers the first answer).
    if (claim.status === 'COMPLETED' && claim.completeRequestId === requestId && claim.completedEntry)
      return { claim, entry: claim.completedEntry };
    if (claim.status !== 'CONFIRMED') throw invalidOperation(claim, 'completed');
    if (claim.type === 'OWNERSHIP' && claim.completionPeriodEnd)
      this.periodOver(claim.completionPeriodEnd, this.now(), 'ClaimCompletionPeriodNotEnded');
    const entry = this.entries.create(claim, requestId);
    return { claim: this.move(claim, { status: 'COMPLETED', completeRequestId: requestId, completedEntry: entry }), entry };
  }

  private asDonor(caller: string, id: string): TestClaim {
    const claim = this.get(caller, id);
    if (claim.donorParticipant !== caller) throw forbidden();
    return claim;
  }

  private periodOver(end: string, now: Date, type: string): void {
    if (now.getTime() < new Date(end).getTime())
      throw new Problem(
        400,
        type,
        type === 'ClaimCompletionPeriodNotEnded' ? 'Claim completion period not ended' : 'Claim resolution period not ended',
        `The period ends at ${end}`,
      );
  }

  private move(claim: TestClaim, patch: Partial<TestClaim>): TestClaim {
    Object.assign(claim, patch, { lastModified: this.now().toISOString() });
    return claim;
  }
}

function invalidReason(reason: string, operation: string, type: ClaimType, role: string): Problem {
  return new Problem(
    400,
    'InvalidReason',
    'Invalid reason',
    `Reason ${reason} is not one the ${role.toLowerCase()} may ${operation} a ${type} claim with`,
  );
}

/** An `ExtendedClaim` element, in the order of the document's examples (ListClaimsResponse.xml). */
export function claimXml(c: TestClaim, indent: string): string {
  const i = `${indent}    `;
  return `${indent}<Claim>
${lines(i, [
  ['Type', c.type],
  ['Key', c.key],
  ['KeyType', c.keyType],
])}
${i}<ClaimerAccount>
${lines(`${i}    `, [
  ['Participant', c.claimerAccount.participant],
  ['Branch', c.claimerAccount.branch],
  ['AccountNumber', c.claimerAccount.accountNumber],
  ['AccountType', c.claimerAccount.accountType],
  ['OpeningDate', c.claimerAccount.openingDate],
])}
${i}</ClaimerAccount>
${i}<Claimer>
${lines(`${i}    `, [
  ['Type', c.claimer.type],
  ['TaxIdNumber', c.claimer.taxIdNumber],
  ['Name', c.claimer.name],
])}
${i}</Claimer>
${lines(i, [
  ['DonorParticipant', c.donorParticipant],
  ['Id', c.id],
  ['Status', c.status],
  ['ResolutionPeriodEnd', c.resolutionPeriodEnd],
  ['CompletionPeriodEnd', c.completionPeriodEnd],
  ['LastModified', c.lastModified],
  ['ConfirmReason', c.confirmReason],
  ['CancelReason', c.cancelReason],
  ['CancelledBy', c.cancelledBy],
])}
${indent}</Claim>`;
}

/** Another participant's portability claim of a CPF key (its owner's), as a spec plays that participant (`as(ispb).createClaim`). */
export function portabilityOf(cpf: string, participant: string, name = 'Titular em Outra Instituicao'): ClaimInput {
  return {
    type: 'PORTABILITY',
    key: cpf,
    keyType: 'CPF',
    claimerAccount: { participant, branch: '0001', accountNumber: '1234567', accountType: 'CACC', openingDate: '2024-01-02T03:00:00.000Z' },
    claimer: { type: 'NATURAL_PERSON', taxIdNumber: cpf, name },
  };
}
