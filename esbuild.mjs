// Builds the bundle families of DESIGN.md §1 (the extension, the library, the command-line tools) and prints their sizes from the metafile.
//   node esbuild.mjs            production (minified), fails when a bundle is over its budget
//   node esbuild.mjs --dev      development (sourcemaps, not minified)
//   node esbuild.mjs --watch    development, rebuilding on change
import * as esbuild from "esbuild";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const watch = process.argv.includes("--watch");
const production = !watch && !process.argv.includes("--dev");

/**
 * Size budgets (DESIGN.md §7), in bytes, for minified production builds: the client core, which every script that
 * uses the library loads, and each panel's script, which loads on every panel open (our own budget). Every other
 * bundle is reported, not held to a size: what the extension is held to is its activation (test/unit/activation-weight).
 */
const budgets = { "dist/client.js": 150_000 };
const WEBVIEW_BUDGET = 150_000;
const budgetOf = (file) => budgets[file] ?? (file.startsWith("dist/webview/") && file.endsWith(".js") ? WEBVIEW_BUDGET : undefined);

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : "linked",
  metafile: true,
  logLevel: "warning",
  target: "node20",
  legalComments: "none",
  // UTF-8 as it is ("…" is 3 bytes, not the 6 of "\u2026"): the strings people read use such characters throughout.
  charset: "utf8",
};

/** Dependencies of axios's own Node adapter, which the client never runs: replaced in the bundles (see the stubs). */
const clientAliases = {
  "form-data": "./scripts/bundle-stubs/form-data.cjs",
  "follow-redirects": "./scripts/bundle-stubs/follow-redirects.cjs",
  "https-proxy-agent": "./scripts/bundle-stubs/https-proxy-agent.cjs",
  "proxy-from-env": "./scripts/bundle-stubs/proxy-from-env.cjs",
};

/**
 * Parts of axios the client never runs, each replaced by its own copy of a stub: the built-in adapters (it passes
 * its own) and the form helpers and status table (it sends JSON or strings it encoded itself).
 */
const axiosStubs = [
  { dir: /[\\/]axios[\\/]lib[\\/]adapters$/, file: /^\.\/(http|xhr|fetch)\.js$/, stub: "scripts/bundle-stubs/axios-adapters.mjs" },
  { dir: /[\\/]axios[\\/]lib([\\/](helpers|defaults))?$/, file: /^\.\.?\/(helpers\/)?(toFormData|formDataToJSON|toURLEncodedForm|AxiosURLSearchParams|HttpStatusCode)\.js$/, stub: "scripts/bundle-stubs/axios-form-helpers.mjs" },
];
const axiosStub = {
  name: "axios-stub",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      const match = axiosStubs.find((s) => s.dir.test(args.resolveDir) && s.file.test(args.path));
      return match ? { path: path.resolve(match.stub), suffix: `?${path.basename(args.path, ".js")}` } : undefined;
    });
  },
};

/**
 * The client library's entries: the core, the groups a script loads when it uses them, and the workflows over
 * the client (src/workflows). Each is its own bundle; they share the core's modules at run time (one copy of
 * every class, so `instanceof` holds).
 */
const CLIENT = path.resolve("src/client");
const WORKFLOWS = path.resolve("src/workflows");
const clientEntries = {
  "src/client/index.ts": "client", "src/client/bulk.ts": "client-bulk", "src/client/yaml.ts": "client-yaml",
  "src/workflows/knowledgeFolder.ts": "workflows-knowledge-folder", "src/workflows/knowledgeCheck.ts": "workflows-knowledge-check", "src/workflows/migration.ts": "workflows-migration",
};
const entryOf = (file) => clientEntries[path.relative(".", file).split(path.sep).join("/")];

/** The client's modules the core bundle holds (found by a first, unwritten build of the core). */
async function coreModules() {
  const result = await esbuild.build({ ...common, minify: false, entryPoints: ["src/client/index.ts"], write: false, platform: "node", format: "cjs", external: ["axios", "js-yaml"], plugins: [clientSplit("client", new Set())] });
  return new Set(Object.keys(result.metafile.inputs).map((f) => path.resolve(f)).filter((f) => f.startsWith(CLIENT + path.sep)));
}

/**
 * Splits the client into its entries: another entry's module is required from its own bundle (`./client-bulk.js`),
 * and in an entry other than the core, a module of the core is the core's own (`require("./client.js").__modules`).
 */
function clientSplit(self, core) {
  return {
    name: "client-split",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (!args.importer.startsWith(CLIENT + path.sep) && !args.importer.startsWith(WORKFLOWS + path.sep)) return undefined;
        const file = path.resolve(args.resolveDir, `${args.path}.ts`);
        const entry = entryOf(file);
        if (entry && entry !== self) return { path: `./${entry}.js`, external: true };
        if (self !== "client" && core.has(file)) return { path: file, namespace: "client-core" };
        return undefined;
      });
      build.onResolve({ filter: /^\.\/client\.js$/, namespace: "client-core" }, () => ({ path: "./client.js", external: true }));
      build.onLoad({ filter: /.*/, namespace: "client-core" }, (args) => ({
        contents: `module.exports = require("./client.js").__modules[${JSON.stringify(path.relative(CLIENT, args.path))}];`, loader: "js",
      }));
    },
  };
}

/** The core's entry: the public API, and its modules for the other entries to share. */
function coreEntry(core) {
  const modules = [...core].map((file) => path.relative(CLIENT, file)).sort();
  return {
    contents: [
      `export * from "./index";`,
      ...modules.map((m, i) => `import * as m${i} from "./${m.replace(/\.ts$/, "")}";`),
      `export const __modules = { ${modules.map((m, i) => `${JSON.stringify(m)}: m${i}`).join(", ")} };`,
    ].join("\n"),
    resolveDir: CLIENT, sourcefile: "client-entry.ts", loader: "ts",
  };
}

/**
 * What people run and import from the npm package (the library, the command-line tools) keeps its class and
 * function names (an error reads "APIRequestError", not "t") and ships a source map beside each file, so a
 * stack points into src/. The extension's own bundles stay as small as they can.
 */
const libraryDebugging = { keepNames: true, sourcemap: "linked" };

/** Each entry as CommonJS, and an ES module beside it that re-exports it (one instance, whichever way it is loaded). */
async function clientGroups() {
  const core = await coreModules();
  return Object.entries(clientEntries).map(([entry, name]) => ({
    ...common, ...libraryDebugging, ...(name === "client" ? { stdin: coreEntry(core) } : { entryPoints: [entry] }), outfile: `dist/${name}.js`, platform: "node", format: "cjs",
    alias: clientAliases, plugins: [axiosStub, clientSplit(name, core)],
  }));
}

/**
 * Writes a file whole or not at all: a temporary file beside it, renamed over it. Tests and tools run dist/ while
 * another build writes it (a test that rebuilds, a developer's second terminal); a reader sees the old file or the
 * new one, never half a bundle. A file whose bytes are unchanged is left alone.
 */
function writeWhole(file, contents) {
  const bytes = typeof contents === "string" ? Buffer.from(contents) : Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength);
  const existing = existsSync(file) ? statSync(file) : undefined;
  if (existing && existing.size === bytes.length && readFileSync(file).equals(bytes)) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  // A tool's bundle starts with "#!" and runs by its name, executable as esbuild itself would have written it.
  const executable = bytes.subarray(0, 2).toString() === "#!";
  writeFileSync(temporary, bytes, { mode: existing?.mode ?? (executable ? 0o777 : 0o666) });
  renameSync(temporary, file);
}

function writeEsmWrappers() {
  for (const name of Object.values(clientEntries)) writeWhole(`dist/${name}.mjs`, `// The ES module face of ${name}.js: the same module, so the same classes.\nexport * from "./${name}.js";\n`);
}

/** A file a bundle requires at run time from beside itself (loaded on first use), not inlined. */
function besideBundle(filter, file) {
  return { name: `beside:${file}`, setup: (build) => build.onResolve({ filter }, () => ({ path: file, external: true })) };
}

/**
 * jsdom reads two files beside its sources at run time: the default stylesheet (inlined here) and the worker of
 * synchronous XMLHttpRequest (which the tools never make; it is named, not shipped). The build fails when either
 * line moves in a new jsdom, rather than shipping a bundle that fails on first use.
 */
const jsdomWhole = {
  name: "jsdom-whole",
  setup(build) {
    const inline = (file, pattern, replacement) => build.onLoad({ filter: file }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!pattern.test(source)) throw new Error(`${args.path}: the line jsdom-whole replaces is gone; see esbuild.mjs`);
      return { contents: source.replace(pattern, replacement(args.path)), loader: "js" };
    });
    inline(/[\\/]jsdom[\\/]lib[\\/]jsdom[\\/]living[\\/]css[\\/]helpers[\\/]computed-style\.js$/, /fs\.readFileSync\(\s*path\.resolve\(__dirname, "(\.\.\/)+browser\/default-stylesheet\.css"\),\s*\{ encoding: "utf-8" \}\s*\)/,
      (file) => JSON.stringify(readFileSync(path.resolve(path.dirname(file), "../../../browser/default-stylesheet.css"), "utf8")));
    // Packages with both faces are taken by their CommonJS one: the ES one of css-tree reads its data through
    // createRequire(import.meta.url), which a CommonJS bundle has no address for.
    build.onResolve({ filter: /^[@\w]/ }, (args) => args.kind === "import-statement" && !args.pluginData?.required
      ? build.resolve(args.path, { kind: "require-call", resolveDir: args.resolveDir, importer: args.importer, pluginData: { required: true } })
      : undefined);
    inline(/[\\/]jsdom[\\/]lib[\\/]jsdom[\\/]living[\\/]xhr[\\/]XMLHttpRequest-impl\.js$/, /require\.resolve\("\.\/xhr-sync-worker\.js"\)/,
      () => JSON.stringify("synchronous XMLHttpRequest is not in this build of jsdom"));
  },
};

const webviewDir = "src/webviews/ui";
const webviewEntries = existsSync(webviewDir)
  ? readdirSync(webviewDir).filter((f) => f.endsWith(".main.ts")).map((f) => path.join(webviewDir, f))
  : [];

const groups = [
  {
    ...common, entryPoints: ["src/extension.ts"], outfile: "dist/extension.js", platform: "node", format: "cjs",
    external: ["vscode", "./axios.js", "./soql-parser.js", "./exceljs.js", "./demo-org.js", "./html-markdown.js", "./mcp-http.js", "./notebook-report.js"],
    plugins: [besideBundle(/^\.\/mcpHttp$/, "./mcp-http.js"), besideBundle(/^\.\/notebookReport$/, "./notebook-report.js")],
    alias: {
      "node-html-markdown": "./scripts/bundle-stubs/html-markdown-runtime.cjs", "node-html-parser": "./scripts/bundle-stubs/html-markdown-runtime.cjs", parse5: "./scripts/bundle-stubs/html-markdown-runtime.cjs",
      axios: "./scripts/bundle-stubs/axios-runtime.cjs", "@jetstreamapp/soql-parser-js": "./scripts/bundle-stubs/soql-parser-runtime.cjs", "exceljs/lib/stream/xlsx/workbook-writer": "./scripts/bundle-stubs/exceljs-runtime.cjs",
      "@vscode/l10n": "./scripts/bundle-stubs/l10n-host.cjs",
    },
  },
  // axios beside the extension, loaded with the first org connection: activation does not parse it.
  {
    ...common, entryPoints: ["scripts/bundle-stubs/axios-entry.mjs"], outfile: "dist/axios.js", platform: "node", format: "cjs",
    alias: clientAliases, plugins: [axiosStub],
  },
  // The agent's tools over loopback HTTP with the MCP SDK, loaded when VS Code first starts the server (src/agent/mcpProvider.ts).
  { ...common, entryPoints: ["src/agent/mcpHttp.ts"], outfile: "dist/mcp-http.js", platform: "node", format: "cjs" },
  // ExcelJS's streaming workbook writer, loaded by the extension when an export to Excel starts (src/webviews/xlsxExport.ts).
  { ...common, entryPoints: [createRequire(import.meta.url).resolve("exceljs/lib/stream/xlsx/workbook-writer")], outfile: "dist/exceljs.js", platform: "node", format: "cjs" },
  // The HTML parsers and Markdown writer, loaded when an agent first reads an article (src/agent/articleText.ts) or a
  // folder's rich text is first judged for publishing (src/shared/plainRichText.ts).
  { ...common, entryPoints: ["scripts/bundle-stubs/html-markdown-entry.mjs"], outfile: "dist/html-markdown.js", platform: "node", format: "cjs" },
  // The built-in demo org (the project's emulator), loaded when it is first started (src/connections/builtInDemo.ts);
  // it shares the SOQL parser file with the extension.
  {
    ...common, entryPoints: ["src/demo-org/index.ts"], outfile: "dist/demo-org.js", platform: "node", format: "cjs", external: ["./soql-parser.js"],
    alias: { "@jetstreamapp/soql-parser-js": "./scripts/bundle-stubs/soql-parser-runtime.cjs" },
  },
  // The SOQL parser, loaded by the extension on first use (see src/soql/parser.ts).
  { ...common, entryPoints: [createRequire(import.meta.url).resolve("@jetstreamapp/soql-parser-js")], outfile: "dist/soql-parser.js", platform: "node", format: "cjs" },
  ...(await clientGroups()),
  // The command-line tools: whole, with the client inside (a tool is one file to run); jsdom is its own file beside
  // them, loaded when rich text is first rendered.
  {
    ...common, ...libraryDebugging, entryPoints: { "crm-knowledge": "src/cli/crm-knowledge.ts", "crm-knowledge-check": "src/cli/checkWorker.ts", "crm-knowledge-folder": "src/cli/folderWorker.ts", "crm-data": "src/cli/crm-data.ts", mcp: "src/cli/crm-explorer-mcp.ts" }, outdir: "dist", platform: "node", format: "cjs",
    alias: clientAliases, plugins: [axiosStub, besideBundle(/^jsdom$/, "./jsdom.js")], banner: { js: "#!/usr/bin/env node" },
    external: ["tsx/cjs"], // a worker run from source loads its source through tsx; the bundles never do
  },
  // jsdom whole, so the npm package needs no runtime dependency (installing it pulls nothing else).
  { ...common, entryPoints: [createRequire(import.meta.url).resolve("jsdom")], outfile: "dist/jsdom.js", platform: "node", format: "cjs", plugins: [jsdomWhole] },
  // A notebook's report with its charts as SVG (the chart library in Node), loaded by the extension on the first export.
  {
    ...common, entryPoints: ["src/notebooks/notebookReport.ts"], outfile: "dist/notebook-report.js", platform: "node", format: "cjs", external: ["vscode", "./soql-parser.js"],
    alias: { "@jetstreamapp/soql-parser-js": "./scripts/bundle-stubs/soql-parser-runtime.cjs", "@vscode/l10n": "./scripts/bundle-stubs/l10n-host.cjs" },
  },
  // The notebook renderer, with the chart library: VS Code loads it into a notebook's webview when an output of ours is shown.
  // The chart library is its own chunk, imported when an output first draws a chart: a table draws without it.
  {
    ...common, entryPoints: { "notebook-renderer": "src/notebooks/renderer/outputRenderer.ts" }, outdir: "dist", splitting: true, chunkNames: "notebook-renderer-[name]",
    platform: "browser", format: "esm", target: "es2022",
  },
  ...(webviewEntries.length
    ? [{ ...common, entryPoints: webviewEntries, outdir: "dist/webview", platform: "browser", format: "esm", target: "es2022" }]
    : []),
];

/** The codicon font and its stylesheet, served to the webviews from dist/ (node_modules is not packaged). */
function copyCodicons() {
  const source = path.dirname(createRequire(import.meta.url).resolve("@vscode/codicons/dist/codicon.css"));
  for (const file of ["codicon.css", "codicon.ttf"]) writeWhole(path.join("dist/webview/codicons", file), readFileSync(path.join(source, file)));
}

function report(results) {
  let overBudget = false;
  const sizes = {};
  for (const result of results) {
    for (const [file, out] of Object.entries(result.metafile.outputs)) {
      if (file.endsWith(".map")) continue;
      const budget = budgetOf(file);
      const over = production && budget !== undefined && out.bytes > budget;
      overBudget ||= over;
      sizes[file] = { bytes: out.bytes, ...(budget ? { budget } : {}) };
      const note = budget ? ` (budget ${(budget / 1000).toFixed(0)} KB${over ? ", OVER" : ""})` : "";
      console.log(`  ${file.padEnd(32)} ${(out.bytes / 1000).toFixed(1).padStart(8)} KB${note}`);
    }
  }
  // The README's bundle figures come from here (scripts/figures.mjs), and its test checks them against this.
  if (production) {
    writeWhole("dist/sizes.json", JSON.stringify(sizes, null, 2) + "\n");
    writeNotices(results);
  }
  return overBudget;
}

/** The package directory a bundled file comes from (the innermost node_modules/<name>), or undefined for our own. */
function packageDirOf(input) {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) return undefined;
  const rest = input.slice(at + "node_modules/".length).split("/");
  return input.slice(0, at) + "node_modules/" + (rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]);
}

/**
 * THIRD-PARTY-NOTICES.md: the licence of every package whose code the shipped bundles hold (from the metafile),
 * and of the codicon font copied beside the webviews. Written by each production build, so it follows the code.
 */
function writeNotices(results) {
  const shipped = new Set(["node_modules/@vscode/codicons"]);
  for (const result of results) {
    for (const [file, out] of Object.entries(result.metafile.outputs)) {
      // The client bundles are the library's, not the extension's: the VSIX ships the others.
      if (file.endsWith(".map") || /dist\/client(-[\w-]+)?\.m?js$/.test(file)) continue;
      for (const input of Object.keys(out.inputs)) {
        const dir = packageDirOf(input);
        if (dir && out.inputs[input].bytesInOutput > 0) shipped.add(dir);
      }
    }
  }
  // One notice per name and version (npm can install the same version in several places).
  const packages = new Map();
  for (const dir of shipped) {
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    packages.set(`${manifest.name}@${manifest.version}`, { dir, manifest });
  }
  const sections = [...packages.values()]
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name) || a.manifest.version.localeCompare(b.manifest.version))
    .map(({ dir, manifest }) => {
      // A licence folder (ECharts' licenses/ holds the licences of code it includes) is read file by file.
      const files = readdirSync(dir).filter((f) => /^(licen[cs]e|notice|copying)/i.test(f)).sort()
        .flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? readdirSync(path.join(dir, f)).sort().map((g) => path.join(f, g)) : [f]));
      const author = typeof manifest.author === "string" ? manifest.author : manifest.author?.name;
      const texts = files.length
        ? files.map((f) => "```text\n" + readFileSync(path.join(dir, f), "utf8").trim() + "\n```")
        : [`The package ships no licence file; its manifest declares ${manifest.license}${author ? `, by ${author}` : ""}.`];
      return `## ${manifest.name} ${manifest.version}\n\nLicence: ${manifest.license ?? "see below"}\n\n${texts.join("\n\n")}\n`;
    });
  writeWhole("dist/shipped-packages.json", JSON.stringify([...packages.keys()].sort(), null, 2) + "\n");
  writeWhole("THIRD-PARTY-NOTICES.md", `# Third-party notices\n\nCRM Explorer ships code from these packages in its bundles: the extension's (and the codicon font beside its panels) and the npm package's (the library, the command-line tools and the jsdom they render rich text with). Written by the production build from what the bundles hold.\n\n${sections.join("\n")}`);
}

copyCodicons();
if (watch) {
  const contexts = await Promise.all(
    groups.map((g) => esbuild.context({ ...g, plugins: [...(g.plugins ?? []), { name: "report", setup: (b) => b.onEnd((r) => r.metafile && report([r])) }] })),
  );
  await Promise.all(contexts.map((c) => c.watch()));
  writeEsmWrappers();
  console.log("watching for changes…");
} else {
  const results = await Promise.all(groups.map((g) => esbuild.build({ ...g, write: false })));
  for (const result of results) for (const out of result.outputFiles) writeWhole(path.relative(".", out.path), out.contents);
  writeEsmWrappers();
  console.log(`bundle sizes (${production ? "production" : "development"}):`);
  if (report(results)) {
    console.error("a bundle is over its size budget (DESIGN.md §7)");
    process.exit(1);
  }
}
