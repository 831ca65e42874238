import { registerSecretUrl, redactError } from '@partner/tracing';
import { http, HttpTransport, HttpTransportConfig } from 'viem';

/**
 * viem's http transport to `url`, whose errors never show the URL's secrets: viem's errors print the URL
 * called (a provider's key sits in its path or query), and they reach log lines, spans and operators. The
 * URL is registered as a secret, so logs and spans hide it too (redactSecrets).
 */
export function redactedHttp(url: string, config: HttpTransportConfig): HttpTransport {
  registerSecretUrl(url);
  const transport = http(url, config);
  return (params) => {
    const built = transport(params);
    // Redacted where the transport throws: the errors viem's actions wrap around it are built from this one's fields.
    const request: typeof built.request = async (args, options) => {
      try {
        return await built.request(args, options);
      } catch (error) {
        throw redactError(error);
      }
    };
    return { ...built, request };
  };
}
