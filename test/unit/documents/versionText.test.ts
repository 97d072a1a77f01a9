import { test } from "node:test";
import assert from "node:assert/strict";
import { comparisonTexts, formatHtml } from "../../../src/documents/versionText";
import { masterAsTranslated } from "../../../src/client";

test("rich text is compared one block per line", () => {
  assert.equal(formatHtml("<h2>Title</h2><p>One<br>two</p><ol><li>a</li><li>b</li></ol>"), "<h2>Title</h2>\n<p>One<br>\ntwo</p>\n<ol>\n<li>a</li>\n<li>b</li>\n</ol>");
});

test("both sides list the same fields in the same order (differing first), empty values named, so the diff lines align", () => {
  const texts = comparisonTexts({
    left: {}, right: {},
    fields: [
      { name: "Answer__c", label: "Answer", richText: true, left: "<p>Old</p><p>Same</p>", right: "<p>New</p><p>Same</p>", same: false },
      { name: "Summary", label: "Summary", richText: false, left: null, right: "Added", same: false },
      { name: "Title", label: "Title", richText: false, left: "T", right: "T", same: true },
    ],
  });
  assert.equal(texts.differing, 2);
  assert.equal(texts.left, "## Answer (Answer__c)\n<p>Old</p>\n<p>Same</p>\n\n## Summary (Summary)\n(empty)\n\n## Title (Title)\nT\n");
  assert.equal(texts.right.split("\n").length, texts.left.split("\n").length);
});

test("the master as translated: the newest master version published before the translation's last change", () => {
  const masters = [
    { Id: "v3", LastPublishedDate: "2026-03-01T00:00:00.000+0000" },
    { Id: "v2", LastPublishedDate: "2026-02-01T00:00:00.000+0000" },
    { Id: "v1", LastPublishedDate: "2026-01-01T00:00:00.000+0000" },
    { Id: "draft", LastPublishedDate: null },
  ];
  assert.equal(masterAsTranslated(masters, { LastModifiedDate: "2026-02-15T00:00:00.000+0000" })?.Id, "v2");
  assert.equal(masterAsTranslated(masters, { LastModifiedDate: "2025-12-01T00:00:00.000+0000" }), undefined);
});
