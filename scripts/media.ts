/**
 * `npm run media`: the documents' pictures, made from the journeys' screenshots (test/host/screenshots/, or the
 * latest run's), scaled down and compressed by headless Chromium. The walkthrough's (media/walkthrough/) and the
 * README's (media/readme/, so they show wherever the README is shown, the Extensions view included) ship in the
 * VSIX; the docs pages' (docs/media/) stay in the repository, so the VSIX stays within its budget.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const WALKTHROUGH: Record<string, string> = { connect: "02-demo-org", knowledge: "12-article-details", query: "13-results-grid", edit: "17-record-refused" };
const README = ["03-orgs-and-status", "12-article-details", "13-results-grid", "44-migration-dry-run", "46-agent-mcp-server", "49-notebook-chart"];
const DOCS = [
  "01-welcome", "05-objects", "06-knowledge", "07-feeds", "09-soql-completion", "10-org-info", "11-article-hostile", "14-edit-conflict", "16-article-preview",
  "18-production-guard", "21-grid-review", "22-grid-committed", "24-explain-plan", "27-compare-records", "30-folder-modified", "47-auto-save-refused",
];

const screenshot = (name: string) => [`test/host/screenshots/${name}.png`, `test/host/screenshots/latest/${name}.png`].find(existsSync);

async function main() {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const jobs = [
      ...Object.entries(WALKTHROUGH).map(([to, from]) => ({ from, to: `media/walkthrough/${to}.jpg`, width: 1000, quality: 78 })),
      ...README.map((from) => ({ from, to: `media/readme/${from}.jpg`, width: 800, quality: 70 })),
      ...DOCS.map((from) => ({ from, to: `docs/media/${from}.jpg`, width: 800, quality: 70 })),
    ];
    for (const dir of ["media/walkthrough", "media/readme", "docs/media"]) mkdirSync(dir, { recursive: true });
    for (const job of jobs) {
      const file = screenshot(job.from);
      if (!file) throw new Error(`no screenshot ${job.from}.png: run the journeys (npm test) first`);
      const page = await browser.newPage({ viewport: { width: job.width, height: Math.round(job.width * 0.714) } });
      await page.setContent(`<body style="margin:0"><img style="width:${job.width}px;display:block" src="data:image/png;base64,${readFileSync(file).toString("base64")}"></body>`);
      await page.locator("img").evaluate((img: HTMLImageElement) => img.decode());
      await page.screenshot({ path: job.to, type: "jpeg", quality: job.quality, fullPage: true });
      await page.close();
    }
    console.log(`${jobs.length} pictures written`);
  } finally {
    await browser.close();
  }
}

void main();
