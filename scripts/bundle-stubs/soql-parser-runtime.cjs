// In the extension bundle the SOQL parser is not inlined: it is its own file, dist/soql-parser.js,
// required from beside dist/extension.js when a SOQL document is first checked (src/soql/parser.ts).
module.exports = require("./soql-parser.js");
