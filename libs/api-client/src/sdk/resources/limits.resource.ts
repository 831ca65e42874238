import type { CallOptions, HttpTransport } from '../http-transport';
import type { UserLimits } from '../sdk.types';

export class LimitsResource {
  constructor(private readonly http: HttpTransport) {}

  /** The withdrawal limits in force for the user (per withdrawal, 24 hours, 30 days, your users' 24 hours) and their use. */
  get(document: string, options?: CallOptions): Promise<UserLimits> {
    return this.http.get(`/partner/v1/users/${encodeURIComponent(document)}/limits`, undefined, options);
  }
}
