// The HTML parsers and the Markdown writer, as one file beside dist/extension.js: the agent's article text
// (node-html-parser, node-html-markdown) and the publish gate's judge of plain rich text (parse5).
export { NodeHtmlMarkdown } from "node-html-markdown";
export { parse, TextNode } from "node-html-parser";
export { parseFragment } from "parse5";
