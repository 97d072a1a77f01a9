/**
 * What a caller sent, quoted back in an answer: JSON, at most a short excerpt. A refusal names the value it
 * refuses without echoing a flood (a 9 MB argument is quoted in a hundred characters, with its length).
 */
const MOST = 80;

export function quoted(value: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    json = String(value);
  }
  return json.length <= MOST ? json : `${json.slice(0, MOST)}… (${json.length.toLocaleString("en-US")} characters)`;
}
