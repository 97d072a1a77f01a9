// The HTML parser and the Markdown writer the agent's article text uses, as one file beside dist/extension.js.
export { NodeHtmlMarkdown } from "node-html-markdown";
export { parse, TextNode } from "node-html-parser";
