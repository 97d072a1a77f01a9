/** Journey: with crm.views.showAllOrgs, the views group every signed-in org; commands act on the node's org. */
import assert from "node:assert/strict";
import { workbenchSession } from "./session";

const { journey } = workbenchSession({ settings: { "crm.views.showAllOrgs": true, "crm.knowledge.pageSize": 3 } });

journey("every signed-in org has its own branch in Objects, Knowledge and Feeds", async ({ ui, emulator }) => {
    const c = emulator.credentials;
    await ui.addDemoOrg(emulator.url);
    await ui.runCommand("CRM: Add Org…");
    await ui.pick("How do you sign in", "Client credentials");
    await ui.answer("Login URL", emulator.url);
    await ui.answer("Consumer key", c.clientId);
    await ui.answer("Consumer secret", c.clientSecret);
    await ui.answer("Name for this org", "Integration");
    await ui.waitForRow("Orgs", "Integration");
    await ui.expandPane("Knowledge");
    const demo = await ui.waitForRow("Knowledge", "Demo org");
    assert.equal(demo.description, "admin@demo.crm");
    assert.equal((await ui.waitForRow("Knowledge", "Integration")).description, "integration@demo.crm");
    await ui.expandPane("Objects");
    const labels = await ui.eventually("both orgs' groups in Objects", async () => {
      const shown = (await ui.rows("Objects")).map((r) => r.label);
      return shown.filter((l) => l === "Standard").length === 2 && shown;
    }, 20_000);
    assert.deepEqual(labels.slice(0, 6), ["Demo org", "Standard", "Custom", "Integration", "Standard", "Custom"], "each org has its own groups");
    await ui.screenshot("08-all-orgs");
}, 180_000);
