/** Removes secrets from text before it reaches a log line or an error message shown to a person. */

const PATTERNS: [RegExp, string][] = [
  [/\b(Bearer|OAuth)\s+[^\s"',;]+/gi, "$1 ***"],
  // Session IDs: 15-char org ID, "!", opaque rest.
  [/\b00D[a-zA-Z0-9]{12,15}![A-Za-z0-9._-]+/g, "00D***!***"],
  [/\b(access_token|refresh_token|password|client_secret|security_token|assertion|code_verifier|code|token)=([^&\s"']+)/gi, "$1=***"],
  [/"(access_?token|refresh_?token|password|client_?secret|security_?token|private_?key|accessToken|refreshToken|clientSecret|securityToken|privateKey|assertion)"\s*:\s*"(?:[^"\\]|\\.)*"/gi, '"$1":"***"'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, "[private key]"],
];

export class Redactor {
  private readonly known = new Set<string>();

  /** Exact values to mask wherever they appear (tokens and passwords of signed-in orgs). */
  remember(...secrets: (string | undefined)[]): void {
    for (const secret of secrets) if (secret && secret.length >= 6) this.known.add(secret);
  }

  forget(...secrets: (string | undefined)[]): void {
    for (const secret of secrets) if (secret) this.known.delete(secret);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.known) out = out.split(secret).join("***");
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return out;
  }
}
