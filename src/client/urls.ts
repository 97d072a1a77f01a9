/** URL rules: the bearer token goes only to the org's own instance origin; http only on loopback. */
import { InvalidURLError } from "./errors";

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])$/i;

// Line breaks and other control characters: URL parsing drops some silently, and they would forge log lines.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A URL-ish value as it may appear in a message: control characters shown escaped, at most 200 characters. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}

/** Where a URL points, without its query: `https://host/path`, `file:///path`. */
function describeUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** True for 127.0.0.0/8, localhost and [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/**
 * Checks a login or instance URL and returns its origin (scheme, host and port, no path).
 * @throws InvalidURLError when it is not an absolute https URL (http is allowed for loopback hosts only).
 */
export function checkOrgUrl(value: unknown, argument: string): string {
  if (typeof value !== "string" || !value.trim()) {
    throw new InvalidURLError(`${argument} must be an absolute https URL such as https://acme.my.salesforce.com`, String(value));
  }
  if (CONTROL.test(value.trim())) throw new InvalidURLError(`${argument} contains a line break or another control character; expected for example https://acme.my.salesforce.com`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new InvalidURLError(`${argument} ${quoted(value)} is not a valid URL; expected for example https://acme.my.salesforce.com`, value);
  }
  if (url.username || url.password) throw new InvalidURLError(`${argument} must not contain a user name or password`, url.origin);
  if (url.protocol === "https:") return url.origin;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return url.origin;
  throw new InvalidURLError(`${argument} ${quoted(describeUrl(url))} must use https (plain http is allowed only for 127.0.0.1 or localhost)`, describeUrl(url));
}

/**
 * Builds the full URL of a call. A relative endpoint is joined to the instance origin; an absolute one
 * is accepted only when it is on that same origin, so the bearer token never leaves the org.
 */
export function resolveEndpoint(instanceOrigin: string, endpoint: unknown): string {
  if (typeof endpoint !== "string" || !endpoint) {
    throw new TypeError(`endpoint must be a non-empty string such as '/services/data/v62.0/limits', got ${endpoint === "" ? "an empty string" : typeof endpoint}`);
  }
  if (CONTROL.test(endpoint)) {
    throw new InvalidURLError(`endpoint ${quoted(pathOnly(endpoint))} contains a line break or another control character`);
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(endpoint)) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new InvalidURLError(`The URL ${quoted(pathOnly(endpoint))} is invalid`, endpoint);
    }
    if (url.origin !== instanceOrigin) {
      throw new InvalidURLError(`The URL ${quoted(describeUrl(url))} is not on the org's instance (${instanceOrigin}); the client calls only its own org`, describeUrl(url));
    }
    return url.toString();
  }
  return instanceOrigin + (endpoint.startsWith("/") ? endpoint : `/${endpoint}`);
}

/** The token endpoint for a login URL: accepts a host (`https://login.salesforce.com`) or the full token URL. */
export function tokenEndpoint(loginUrl: string): string {
  const origin = checkOrgUrl(loginUrl, "loginUrl");
  const path = new URL(loginUrl).pathname.replace(/\/+$/, "");
  if (path.endsWith("/services/oauth2/token")) return origin + path;
  // Experience Cloud sites keep a path prefix before /services.
  return `${origin}${path}/services/oauth2/token`;
}

/** Strips the query string so errors and logs name the resource but not its parameters. */
export function pathOnly(url: string): string {
  const q = url.indexOf("?");
  const withoutQuery = q >= 0 ? url.slice(0, q) : url;
  return withoutQuery.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, "");
}

/** The rich-text image (rtaImage) URLs in a rich-text field's HTML, each once, as written (entities kept). */
export function richTextImageUrls(html: string): string[] {
  return [...new Set([...html.matchAll(/<img\b[^>]*\bsrc="([^"]*rtaImage[^"]*)"/gi)].map((m) => m[1]!))];
}

/**
 * The org's paging links (`nextRecordsUrl`) as they are followed: each must be a path under `resource` of the
 * data API (`/services/data/vNN.N/query`, `…/jobs/ingest`), and a link answered before is refused — one that
 * points at itself would otherwise be followed forever.
 */
export function pageLinks(resource: RegExp): (link: unknown) => string {
  const seen = new Set<string>();
  return (link) => {
    const path = typeof link === "string" ? link.split("?")[0]! : "";
    if (typeof link !== "string" || CONTROL.test(link) || !/^\/services\/data\/v\d+\.\d\//.test(link) || path.split("/").includes("..") || !resource.test(path.replace(/^\/services\/data\/v\d+\.\d/, ""))) {
      throw new InvalidURLError(`The org answered a next page link that is not one of this resource's pages: ${quoted(String(link))}`, String(link));
    }
    if (seen.has(link)) throw new InvalidURLError(`The org answered the next page link ${quoted(link)} a second time: following it would never end`, link);
    seen.add(link);
    return link;
  };
}
