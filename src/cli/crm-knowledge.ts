/** The `crm-knowledge` command (built to dist/crm-knowledge.js, the package's bin). */
import { runKnowledgeCli } from "./knowledgeCli";

void runKnowledgeCli({
  argv: process.argv.slice(2), env: process.env, cwd: process.cwd(),
  out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`),
}).then((code) => {
  process.exitCode = code;
});
