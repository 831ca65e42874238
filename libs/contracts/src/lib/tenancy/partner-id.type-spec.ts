import { PartnerId } from './partner-id';

// Type tests (*.type-spec.ts): tsc checks them with the workspace, Jest never runs them. tsc fails if a
// bare string becomes assignable to PartnerId, since the @ts-expect-error lines would then expect an
// error in vain.
const scoped = (partnerId: PartnerId): string => partnerId;

export function partnerIdIsNotAString(fromRequestBody: string): void {
  // @ts-expect-error a string is not a PartnerId: only authenticatedPartnerId makes one
  scoped(fromRequestBody);
  // @ts-expect-error nor is a template literal built from one
  const built: PartnerId = `${fromRequestBody}`;
  void built;
}
