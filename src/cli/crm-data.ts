/** The `crm-data` command (built to dist/crm-data.js, the package's bin). */
import { runDataCli } from "./dataCli";

void runDataCli({
  argv: process.argv.slice(2), env: process.env, cwd: process.cwd(),
  out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`),
}).then((code) => {
  process.exitCode = code;
});
