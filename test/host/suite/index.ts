/** Entry of the in-host suite: the extension host requires this bundle and awaits run(). */
import Mocha from "mocha";
import { registerActivationTests } from "./activation.host";
import { registerOrgTests } from "./orgs.host";
import { registerAgentTests } from "./agent.host";
import { registerImportTests } from "./imports.host";
import { registerNotebookTests } from "./notebooks.host";
import { registerDocumentTests } from "./documents.host";

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: "tdd", color: false, timeout: 30_000, reporter: "spec" });
  mocha.suite.emit("pre-require", globalThis, "in-host", mocha);
  registerActivationTests();
  registerOrgTests();
  registerAgentTests();
  registerImportTests();
  registerNotebookTests();
  registerDocumentTests();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} in-host test(s) failed`)) : resolve()));
  });
}
