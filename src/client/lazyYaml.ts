/**
 * The YAML module, loaded when the first YAML file is read or written: neither the client core nor the
 * extension's activation reads any, so neither loads the parser until then.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const yaml = (): typeof import("./yaml") => require("./yaml");
