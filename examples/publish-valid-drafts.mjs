#!/usr/bin/env node
// Lists the knowledge drafts, publishes the validated ones, and posts a summary to a Chatter group.
// Runs with plain Node on the built client:  node examples/publish-valid-drafts.mjs helper.json "Group name"
// (helper.json is a helper file: { "connection": { "endpoint_url": …, "client_id": …, … } }).
import { Crm } from "crm-explorer/client";

const [helper, groupName = "Knowledge council"] = process.argv.slice(2);
if (!helper) {
  console.error("usage: node examples/publish-valid-drafts.mjs <helper.json|helper.yaml> [group name]");
  process.exit(2);
}

const crm = await Crm.create({ helper });
try {
  const drafts = await crm.queryAll("SELECT Id, Title, ValidationStatus FROM Knowledge__kav WHERE PublishStatus = 'Draft' ORDER BY Title");
  const valid = drafts.records.filter((d) => d.ValidationStatus === "Validated");
  console.log(`${drafts.records.length} drafts, ${valid.length} validated`);
  const published = [];
  const failed = [];
  if (valid.length) {
    const [result] = await crm.knowledge.publishMultipleArticles(valid.map((d) => d.Id));
    for (const draft of valid) {
      const outcome = result.outputValues[draft.Id.slice(0, 15)];
      (outcome === "Success" ? published : failed).push(`${draft.Title}${outcome === "Success" ? "" : ` (${outcome})`}`);
    }
  }
  const groups = await crm.feed.getGroups({ query: groupName });
  const group = groups.groups.find((g) => g.name === groupName);
  if (!group) throw new Error(`no Chatter group named '${groupName}'`);
  const summary = published.length
    ? `Published ${published.length} validated draft(s): ${published.join("; ")}.${failed.length ? ` Not published: ${failed.join("; ")}.` : ""}`
    : "No validated drafts to publish today.";
  await crm.feed.postFeedItem(group.id, { messageText: summary });
  console.log(summary);
} finally {
  crm.close();
}
