// In the extension bundle, @vscode/l10n's t() is VS Code's own vscode.l10n.t: the modules that do not import
// vscode (the Add Org wizard's steps, the grid's checks, the panels' models) then read the bundle VS Code loaded
// for this extension, with nothing to configure. Plain Node (the unit tests, the client) keeps the real package.
const vscode = require("vscode");

module.exports = { t: (...args) => vscode.l10n.t(...args), config: () => undefined };
