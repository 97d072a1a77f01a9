// In the extension bundle the HTML parser and Markdown writer are not inlined: they are dist/html-markdown.js,
// required from beside dist/extension.js when an agent first reads an article (src/agent/articleText.ts).
module.exports = require("./html-markdown.js");
