/**
 * The password of a Redis URL must never reach a message, a log line or the terminal: every message the
 * command-line tool prints, and every connection error, goes through redactSecrets; URLs are shown through redactUrl.
 */
const MASK = '***';

/** The URL with its password (and a bare `redis://secret@host` user, which node-redis reads as a password) masked. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = MASK;
    else if (parsed.username) parsed.username = MASK;
    return parsed.toString();
  } catch {
    // Not parseable: mask everything between '//' and the last '@', if any.
    return url.replace(/\/\/[^/]*@/, `//${MASK}@`);
  }
}

/** The secrets of `url` in every form they may appear in a message: as written, percent-decoded. */
function secretsOf(url: string): string[] {
  const found = new Set<string>();
  try {
    const parsed = new URL(url);
    for (const part of [parsed.password, parsed.password ? '' : parsed.username]) {
      if (!part) continue;
      found.add(part);
      try {
        found.add(decodeURIComponent(part));
      } catch {
        // a malformed escape: the raw form is masked
      }
    }
  } catch {
    const match = /\/\/([^/]*)@/.exec(url);
    if (match) {
      found.add(match[1]);
      const colon = match[1].indexOf(':');
      if (colon >= 0) found.add(match[1].slice(colon + 1));
    }
  }
  return [...found].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/** `text` with the URL replaced by its redacted form and every occurrence of its secrets masked. */
export function redactSecrets(text: string, url: string): string {
  let out = text.split(url).join(redactUrl(url));
  for (const secret of secretsOf(url)) out = out.split(secret).join(MASK);
  return out;
}
