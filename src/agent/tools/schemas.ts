/** Input schema parts several tools share, as a model reads them. */

export const orgArg = { type: "string", description: "In VS Code: the name of another connected org (as in the Orgs view); the active org when left out. An MCP server serves one org and refuses any other name." };
export const soslArg = { type: "string", description: "A SOSL FIND statement (instead of soql)." };
export const languageArg = { type: "string", description: "Knowledge language code (en_US, fr, de …); the signed-in user's language when left out." };
export const fieldValuesArg = { type: "object", description: "Field API names and their new values (strings, numbers, booleans or null).", additionalProperties: { type: ["string", "number", "boolean", "null"] } };
