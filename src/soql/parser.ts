/**
 * The SOQL parser (@jetstreamapp/soql-parser-js, about 200 KB) loads on the first check of a SOQL
 * document, not at activation; the extension build ships it as dist/soql-parser.js beside the bundle.
 */
import type * as Parser from "@jetstreamapp/soql-parser-js";

let loaded: typeof Parser | undefined;

export function soqlParser(): typeof Parser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require("@jetstreamapp/soql-parser-js") as typeof Parser);
}
