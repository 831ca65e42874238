import { PixKeyFailureReason } from '@partner/contracts';
import { errorText } from '@partner/tracing';
import { DictProblem } from './dict-directory';

/** A refusal as the DICT loops store and log it (errorText: a problem's detail may quote a CPF). */
export const problemText = (problem: DictProblem): string =>
  errorText(`DICT ${problem.status} ${problem.type}${problem.detail ? `: ${problem.detail}` : ''}`);

/**
 * What a DICT refusal of a registration means for the key (docs/api.md, "Pix keys"): a final answer,
 * `failed` with the partner-facing reason, or a problem of the operator's that the same request may
 * overcome later (retried with backoff, never blamed on the user). By the problem's type, as the document
 * names them (`openapi/openapi.yaml`, "Tratamento de erros").
 */
export type RegistrationVerdict = { final: true; reason: PixKeyFailureReason } | { final: false; operatorProblem: boolean };

const KEY_HELD_ELSEWHERE = new Set([
  // The key is the same owner's at another institution: DICT asks for a portability claim (not supported).
  'EntryKeyInCustodyOfDifferentParticipant',
  // The key is another person's (possible for phone and e-mail keys, never for a CPF, whose owner is its holder).
  'EntryKeyOwnedByDifferentPerson',
]);

/** Refusals that come from the operator's set-up (certificates, ISPB), not the user's data: retried, and alerted on. */
const OPERATOR_PROBLEMS = new Set(['Forbidden', 'RequestSignatureInvalid']);

/** Refusals that may pass by themselves: DICT's own limits. */
const TRANSIENT = new Set(['RateLimited', 'ServiceUnavailable', 'InternalServerError']);

export function registrationVerdict(problem: DictProblem): RegistrationVerdict {
  if (KEY_HELD_ELSEWHERE.has(problem.type)) return { final: true, reason: 'key_held_elsewhere' };
  // The key is already an entry of this participant for the same owner, on another account: the same person
  // registered through another partner of the operator (a retry of our own request would be answered 201).
  if (problem.type === 'EntryAlreadyExists') return { final: true, reason: 'key_linked_to_another_account' };
  if (OPERATOR_PROBLEMS.has(problem.type)) return { final: false, operatorProblem: true };
  if (TRANSIENT.has(problem.type)) return { final: false, operatorProblem: false };
  // EntryInvalid, EntryLimitExceeded, EntryTaxIdNumberByDifferentOwner, InvalidReason, RequestIdAlreadyUsed,
  // BadRequest and any type the document may add: DICT will not take this entry as it is.
  return { final: true, reason: 'dict_rejected' };
}

/**
 * What a refusal of a deletion means: `NotFound` is done (DICT holds no entry of the key: deleted already, by
 * an earlier attempt whose answer was lost, or never registered); anything else is retried with backoff, the
 * key staying `deleting` (EntryLockedByClaim waits for the claim to end; the rest are the operator's to fix).
 */
export function deletionDone(problem: DictProblem): boolean {
  return problem.type === 'NotFound';
}
