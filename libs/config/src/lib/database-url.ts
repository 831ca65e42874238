/** `url` with `password` as its password (one read from a file, DATABASE_PASSWORD_FILE); `url` itself without one. */
export function withDatabasePassword(url: string, password: string | undefined): string {
  if (!password) return url;
  const parsed = new URL(url);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}
