/** The demo org that runs inside the extension: started on demand, once, on its old address when free, found again in a new window. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { BuiltInDemo } from "../../../src/connections/builtInDemo";
import { DEMO_ORG } from "../../../src/demo-org/credentials";
import { OrgManager } from "../../../src/connections/orgManager";
import { OrgRegistry } from "../../../src/connections/orgRegistry";
import * as emulator from "../../../src/demo-org";
import { MemorySecrets, MemoryState, quietLog } from "../fakes";

const fromSources = () => emulator;

function managerWith(registry: OrgRegistry, demo: BuiltInDemo): OrgManager {
  return new OrgManager(registry, { settings: () => ({ apiVersion: "", timeoutMs: 10_000, logRequestBodies: false }), log: quietLog().log, remember: () => undefined, startDemo: (url) => demo.start(url) });
}

test("started once however often it is asked for; stopped, it starts again on the same address", async () => {
  const demo = new BuiltInDemo(fromSources);
  const [a, b] = await Promise.all([demo.start(), demo.start()]);
  assert.equal(a, b, "one demo org");
  assert.match(a, /^http:\/\/127\.0\.0\.1:\d+$/, "on this machine only");
  await demo.stop();
  await assert.rejects(fetch(`${a}/services/data`), "stopped");
  const again = await demo.start(a);
  assert.equal(again, a, "its old address, free again");
  await demo.stop();
});

test("a new window finds the built-in demo org again: started on demand for its session, moved when its old address is taken", async () => {
  const state = new MemoryState();
  const secrets = new MemorySecrets();
  const first = new BuiltInDemo(fromSources);
  const url = await first.start();
  const registry = new OrgRegistry(state, secrets);
  const manager = managerWith(registry, first);
  const added = await manager.add({ method: "password", alias: "Demo org", connection: { grant_type: "password", endpoint_url: url, username: DEMO_ORG.username, password: DEMO_ORG.password, security_token: DEMO_ORG.securityToken, client_id: DEMO_ORG.clientId, client_secret: DEMO_ORG.clientSecret } });
  await registry.update(added.key, { builtInDemo: true });
  manager.dispose();
  await first.stop();

  // The window closed; another program now holds the old port.
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(Number(new URL(url).port), "127.0.0.1", resolve));
  const demo = new BuiltInDemo(fromSources);
  const next = managerWith(new OrgRegistry(state, secrets), demo);
  try {
    const session = await next.session(added.key);
    const articles = await session.crm.soqlQuery("SELECT Id FROM Knowledge__kav LIMIT 1");
    assert.equal(articles.records.length, 1, "the demo data is there");
    const moved = next.registry.get(added.key)!;
    assert.notEqual(moved.instanceUrl, url, "moved to a free address");
    assert.equal(moved.instanceUrl, await demo.start(), "the record names where it runs now");
    assert.equal((await next.registry.readConnection(added.key))!.endpoint_url, moved.instanceUrl, "so does its sign-in");
  } finally {
    next.dispose();
    await demo.stop();
    squatter.close();
  }
});
