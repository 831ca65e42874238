/**
 * URLs that carry a secret (docs/operations/payouts.md: "Secrets in node URLs"): a node provider's API key in the
 * path (`https://eth-mainnet.g.alchemy.com/v2/<key>`) or the query (`?apikey=`), or a user and password
 * (`https://user:pass@host`). A URL is shown as redactUrl shows it: scheme and host only.
 */

/** What replaces a secret part. */
const HIDDEN = '…';

/** `url` as it may be shown: its scheme and host; a user, a path or a query each become `…`. */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return HIDDEN;
  }
  const user = u.username || u.password ? `${HIDDEN}@` : '';
  const rest = u.pathname.length > 1 || u.search || u.hash ? `/${HIDDEN}` : '';
  return `${u.protocol}//${user}${u.host}${rest}`;
}

/** Each secret URL's spellings (as configured, as URL() writes it, without its user, its path alone) and what shows instead. */
const secretForms = new Map<string, string>();

/**
 * Registers a URL this process was configured with (a node, a signer): from now on redactSecrets hides it
 * wherever it appears, in whatever spelling a library used (viem's errors print it without the user,
 * HTTP instrumentations record the path and the query as attributes of their own).
 */
export function registerSecretUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return;
  }
  const shown = redactUrl(url);
  const forms: Array<[string, string]> = [
    [url, shown],
    [u.toString(), shown],
  ];
  u.username = '';
  u.password = '';
  const bare = u.toString();
  forms.push([bare, redactUrl(bare)], [bare.replace(/\/$/, ''), redactUrl(bare)]);
  if (u.pathname.length > 1) forms.push([u.pathname + u.search, `/${HIDDEN}`], [u.pathname, `/${HIDDEN}`]);
  if (u.search.length > 1) forms.push([u.search, `?${HIDDEN}`], [u.search.slice(1), HIDDEN]);
  for (const [form, replacement] of forms) if (form !== replacement && form.length > 1) secretForms.set(form, replacement);
  ordered = [...secretForms].sort((a, b) => b[0].length - a[0].length);
}

/** Longest spelling first, so that a URL is replaced whole before its path alone is. */
let ordered: Array<[string, string]> = [];

/** A user and password in any URL (`scheme://user:pass@`). */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;
/** Query parameters that name a key as providers spell them (`?apikey=`, `&api_key=`, `&token=`). */
const KEY_PARAMETER = /([?&](?:api[-_]?key|access[-_]?token|token|secret|password)=)[^&#\s"']+/gi;

/** `text` with every registered secret URL, every URL's user and password, and every key parameter hidden. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [form, replacement] of ordered) if (out.includes(form)) out = out.split(form).join(replacement);
  return out.replace(USERINFO, `$1${HIDDEN}@`).replace(KEY_PARAMETER, `$1${HIDDEN}`);
}

/** How deep an error's causes are followed: deeper than any library nests them, bounded against cycles. */
const MAX_CAUSES = 8;

/**
 * `error` with redactSecrets applied, in place, to its message, stack and every string field (viem's
 * `shortMessage`, `details`, `metaMessages`, `url`...), its causes' too: an error of an HTTP client names
 * the URL it called, and may end up in a log line, a span's event or an operator's answer.
 */
export function redactError<E>(error: E): E {
  let e: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && e !== null && typeof e === 'object'; depth++) {
    const o = e as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(o)) {
      const value = o[key];
      try {
        if (typeof value === 'string') {
          const redacted = redactSecrets(value);
          if (redacted !== value) o[key] = redacted;
        } else if (Array.isArray(value) && value.some((v) => typeof v === 'string')) {
          o[key] = value.map((v: unknown) => (typeof v === 'string' ? redactSecrets(v) : v));
        }
      } catch {
        // A read-only field: the other fields are still redacted.
      }
    }
    e = o.cause;
  }
  return error;
}
