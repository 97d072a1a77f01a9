// In the extension bundle ExcelJS is not inlined: it is its own file, dist/exceljs.js, required from beside
// dist/extension.js when an export to Excel starts (src/webviews/resultsExport.ts).
module.exports = require("./exceljs.js");
