import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ESLint } from "eslint";

const eslint = new ESLint({ cwd: process.cwd() });
const fixture = readFileSync("test/fixtures/lint/imports-vscode.ts", "utf8");

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

test("src/client may not import vscode (the rule is configured and fires)", async () => {
  const messages = await restrictedImports("src/client/fixture.ts", fixture);
  assert.equal(messages.length, 1);
  assert.match(messages[0]!, /must not depend on VS Code/);
});

test("src/client and src/shared may not import other rooms", async () => {
  assert.equal((await restrictedImports("src/client/fixture.ts", `import { x } from "../connections/session";\nexport const y = x;\n`)).length, 1);
  assert.equal((await restrictedImports("src/shared/fixture.ts", `import { Crm } from "../client";\nexport const y = Crm;\n`)).length, 1);
  // The one exception: the record-ID rule, which every room checks IDs by.
  assert.deepEqual(await restrictedImports("src/shared/fixture.ts", `import { isRecordId } from "../client/ids";\nexport const y = isRecordId;\n`), []);
  assert.equal((await restrictedImports("src/shared/fixture.ts", `import { Crm } from "../client/crm";\nexport const y = Crm;\n`)).length, 1);
  assert.equal((await restrictedImports("src/shared/fixture.ts", fixture)).length, 1);
});

test("the SOQL features, documents and panels read the org through src/connections, never through the views; connections reach no room above them", async () => {
  const viaViews = `import { ObjectsModel } from "../views/objectsModel";\nexport const y = ObjectsModel;\n`;
  for (const room of ["soql", "documents", "webviews", "connections"]) {
    const messages = await restrictedImports(`src/${room}/fixture.ts`, viaViews);
    assert.equal(messages.length, 1, room);
    assert.match(messages[0]!, /through src\/connections/);
  }
  assert.equal((await restrictedImports("src/connections/fixture.ts", `import { x } from "../webviews/panels";\nexport const y = x;\n`)).length, 1);
  assert.deepEqual(await restrictedImports("src/soql/fixture.ts", `import type { OrgSchema } from "../connections/schema";\nexport type S = OrgSchema;\n`), [], "the schema is theirs to read");
});

test("the workflows stand on the client alone, and the client knows none of them", async () => {
  assert.equal((await restrictedImports("src/workflows/fixture.ts", fixture)).length, 1, "no VS Code");
  assert.equal((await restrictedImports("src/workflows/fixture.ts", `import { x } from "../connections/orgManager";\nexport const y = x;\n`)).length, 1);
  assert.deepEqual(await restrictedImports("src/workflows/fixture.ts", `import { Crm } from "../client/crm";\nexport const y = Crm;\n`), []);
  assert.equal((await restrictedImports("src/client/fixture.ts", `import { run } from "../workflows/migration";\nexport const y = run;\n`)).length, 1);
});

test("the platform reaches no room above it, not even the connections", async () => {
  const messages = await restrictedImports("src/platform/fixture.ts", `import { NotSignedInError } from "../connections/orgManager";\nexport const y = NotSignedInError;\n`);
  assert.equal(messages.length, 1);
  assert.deepEqual(await restrictedImports("src/connections/fixture.ts", `import { NotSignedInError } from "../platform/errorMessages";\nexport const y = NotSignedInError;\n`), [], "the connections build on the platform");
});

test("the demo org stands beside the client: no VS Code, no room of the extension; nothing in src/ imports the tests", async () => {
  assert.equal((await restrictedImports("src/demo-org/fixture.ts", fixture)).length, 1);
  assert.equal((await restrictedImports("src/demo-org/fixture.ts", `import { x } from "../connections/demo";\nexport const y = x;\n`)).length, 1);
  assert.deepEqual(await restrictedImports("src/demo-org/fixture.ts", `import { get18CharId } from "../client/ids";\nexport const y = get18CharId;\n`), []);
  assert.equal((await restrictedImports("src/client/fixture.ts", `import { startEmulator } from "../demo-org";\nexport const y = startEmulator;\n`)).length, 1);
  for (const file of ["src/views/fixture.ts", "src/connections/fixture.ts", "src/client/fixture.ts", "src/demo-org/fixture.ts"]) {
    const messages = await restrictedImports(file, `import { startEmulator } from "../../test/helpers/emulator";\nexport const y = startEmulator;\n`);
    assert.equal(messages.length, 1, file);
    assert.match(messages[0]!, /Nothing in src\/ imports test\//);
  }
});

test("other rooms may import vscode", async () => {
  assert.deepEqual(await restrictedImports("src/views/fixture.ts", fixture), []);
});

test("the command-line tools run on the client and the shared policies: no VS Code, no room of the extension", async () => {
  assert.equal((await restrictedImports("src/cli/fixture.ts", fixture)).length, 1);
  assert.equal((await restrictedImports("src/cli/fixture.ts", `import { x } from "../connections/writeJournal";\nexport const y = x;\n`)).length, 1);
  assert.deepEqual(await restrictedImports("src/cli/fixture.ts", `import { Crm } from "../client";\nimport { RICH_TEXT_POLICY } from "../shared/richTextPolicy";\nexport const y = [Crm, RICH_TEXT_POLICY];\n`), []);
});

test("the agent's tools stay plain Node (the MCP server runs them); only their VS Code adapter reaches VS Code and the sessions", async () => {
  assert.equal((await restrictedImports("src/agent/fixture.ts", fixture)).length, 1);
  assert.equal((await restrictedImports("src/agent/fixture.ts", `import { x } from "../connections/orgManager";\nexport const y = x;\n`)).length, 1);
  assert.deepEqual(await restrictedImports("src/agent/fixture.ts", `import { Crm } from "../client";\nimport { planAdvice } from "../soql/planAdvice";\nexport const y = [Crm, planAdvice];\n`), []);
  assert.deepEqual(await restrictedImports("src/agent/languageModelTools.ts", `import * as vscode from "vscode";\nimport { x } from "../connections/orgManager";\nexport const y = [vscode, x];\n`), []);
  assert.equal((await restrictedImports("src/agent/languageModelTools.ts", `import { x } from "../webviews/resultsPanel";\nexport const y = x;\n`)).length, 1);
  assert.deepEqual(await restrictedImports("src/agent/mcpProvider.ts", `import * as vscode from "vscode";\nimport { x } from "../connections/orgManager";\nexport const y = [vscode, x];\n`), []);
  assert.equal((await restrictedImports("src/agent/mcpProvider.ts", `import { x } from "../commands/agent";\nexport const y = x;\n`)).length, 1);
});
