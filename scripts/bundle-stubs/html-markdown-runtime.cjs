// In the extension bundle the HTML parsers and Markdown writer are not inlined: they are dist/html-markdown.js,
// required from beside dist/extension.js on first use (src/agent/articleText.ts, src/shared/plainRichText.ts).
module.exports = require("./html-markdown.js");
