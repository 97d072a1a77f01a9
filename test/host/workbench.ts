/** Driving the VS Code workbench the way a person does: activity bar, palette, quick input, trees, menus. */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Frame, Locator, Page } from "playwright-core";

export const SCREENSHOTS = path.resolve(__dirname, "screenshots/latest");

/** What `eventually` waits for: an answer that is not false, undefined or null. */
type Answer<T> = Exclude<T, false | undefined | null>;

export class Driver {
  /** `shotSuffix`: added to every screenshot's name (a journey run again in another mode keeps the first run's pictures). */
  constructor(readonly page: Page, private readonly shotSuffix = "") {}

  /**
   * The journeys' one wait: asks `check` every 150 ms until it answers (anything but false, undefined or
   * null) and resolves with that answer; after `timeout` it fails naming `what` never happened, with the
   * last error `check` threw. For the workbench's own timing (pickers, focus, toasts) and for answers the
   * product gives later — never to click again over a product race.
   */
  async eventually<T>(what: string, check: () => T | Promise<T>, timeout = 15_000): Promise<Answer<T>> {
    const deadline = Date.now() + timeout;
    let lastError: unknown;
    for (;;) {
      try {
        const answer = await check();
        if (answer !== false && answer !== undefined && answer !== null) return answer as Answer<T>;
      } catch (err) {
        lastError = err;
      }
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}${lastError ? ` (last: ${lastError instanceof Error ? lastError.message : String(lastError)})` : ""}`);
      await this.page.waitForTimeout(150);
    }
  }

  /**
   * Opens a view container by its title (clicking an open one would close the sidebar). After a reload VS Code
   * can mark an extension's container as the open one while its sidebar stays empty and hidden (the container is
   * registered after VS Code restored the layout): the item is then clicked to show it.
   */
  async openContainer(title: string): Promise<void> {
    const item = this.page.locator(`.part.activitybar .action-item:has(.action-label[aria-label^="${title}"])`).first();
    await item.waitFor({ timeout: 30_000 });
    const sidebar = this.page.locator(".part.sidebar");
    await this.eventually(`the ${title} container to show`, async () => {
      const checked = await item.evaluate((e) => e.classList.contains("checked"));
      if (checked && (await sidebar.isVisible())) return true;
      await item.click();
      return sidebar.waitFor({ timeout: 2_000 }).then(() => false, () => false);
    }, 30_000);
  }

  /** Runs a command from the palette by its full title ("CRM: Add Org…"), as a keyboard user does. */
  async runCommand(title: string): Promise<void> {
    await this.typeCommand(title);
    await this.pressEnterOnCommand(title);
  }

  /** Opens the palette and brings the command with this title under the focus (Enter then runs it). */
  async typeCommand(title: string): Promise<void> {
    const input = this.page.locator(".quick-input-widget .quick-input-box input");
    // F1 can be lost while a panel that was just opened takes the focus (its frame gets the key): VS Code's
    // focus, so the key is pressed again until the palette shows.
    let presses = 0;
    await this.focusLog("install");
    await this.eventually(`F1 to open the command palette (to run '${title}')`, async () => {
      if (await input.isVisible()) return true;
      if (presses++) console.warn(`DRIVER RETRY: F1 pressed again for '${title}'`);
      await this.page.keyboard.press("F1");
      return input.waitFor({ state: "visible", timeout: 2_000 }).then(() => true, () => false);
    });
    await this.failingWithFocusLog(input.fill(`>${title}`, { timeout: 5_000 }));
    // Enter runs the focused row: move the focus until it is the exact command.
    const focusedLabel = () => this.page.locator(".quick-input-widget .quick-input-list .monaco-list-row.focused .label-name").first().innerText().catch(() => "");
    let moves = 0;
    await this.failingWithFocusLog(this.eventually(`the palette to offer '${title}'`, async () => {
      if ((await focusedLabel()).trim() === title) return true;
      if (moves < 10 && (await this.page.locator(".quick-input-widget .quick-input-list .monaco-list-row .label-name", { hasText: title }).count())) {
        await this.page.keyboard.press("ArrowDown");
        moves++;
      }
      return false;
    }));
  }

  /** `step`, whose failure also tells where the window's focus went (a palette that closed under the driver). */
  private async failingWithFocusLog<T>(step: Promise<T>): Promise<T> {
    return step.catch(async (err: Error) => { throw new Error(`${err.message}\nfocus log:\n${await this.focusLog("read")}`); });
  }

  /** Diagnostics: every focus change and key in the window, with the time and whether the palette was open (installed once per page). */
  private async focusLog(op: "install" | "read"): Promise<string> {
    // A script as text: functions compiled from this file would carry the compiler's helpers, unknown in the page.
    return this.page.evaluate(`(() => {
      const describe = (e) => e instanceof HTMLElement ? e.tagName.toLowerCase() + "." + [...e.classList].slice(0, 3).join(".") + " in " + [...(e.closest(".pane, .part, .quick-input-widget, .monaco-dialog-box")?.classList ?? [])].slice(0, 2).join(".") + " '" + (e.getAttribute("aria-label") ?? "").slice(0, 40) + "'" : String(e);
      if (!window.__focusLog) {
        window.__focusLog = [];
        const note = (line) => {
          const palette = document.querySelector(".quick-input-widget");
          window.__focusLog.push(performance.now().toFixed(0) + " " + line + " (palette " + (palette && palette.style.display !== "none" ? "open" : "closed") + ")");
          if (window.__focusLog.length > 40) window.__focusLog.shift();
        };
        document.addEventListener("focusin", (e) => note("focusin " + describe(e.target)), true);
        document.addEventListener("focusout", (e) => note("focusout " + describe(e.target) + " to " + describe(e.relatedTarget)), true);
        window.addEventListener("blur", () => note("window blur, active " + describe(document.activeElement)));
        document.addEventListener("keydown", (e) => note("keydown " + e.key + " on " + describe(e.target)), true);
      }
      return ${op === "read"} ? window.__focusLog.join("\\n") + "\\nnow active: " + describe(document.activeElement) : "";
    })()`).then(String, (e: Error) => `focus log unreadable: ${e.message}`);
  }

  /** Enter on the command `typeCommand` focused. */
  async pressEnterOnCommand(title: string): Promise<void> {
    const input = this.page.locator(".quick-input-widget .quick-input-box input");
    await this.page.keyboard.press("Enter");
    // A busy workbench can drop that Enter (the list re-renders under it): the palette then stays open on
    // the same text. Press again once rather than wait for a step that never comes — but only when the
    // palette still shows the command: a command that opens its own picker reuses this widget, and a
    // second Enter there would accept (and so close) that picker while its items are still loading.
    // The palette has no title; every picker a command opens has one: never press Enter on such a picker.
    const untitled = async () => !(await this.page.locator(".quick-input-widget:visible .quick-input-title").innerText().catch(() => "")).trim();
    const stillThePalette = async () => (await input.isVisible()) && (await input.inputValue().catch(() => "")) === `>${title}` &&
      (await this.page.locator(".quick-input-widget .quick-input-list .monaco-list-row.focused .label-name", { hasText: title }).count()) > 0 && (await untitled());
    const left = await this.eventually("the palette to close", async () => !(await stillThePalette()), 2_000).catch(() => false);
    if (!left && (await stillThePalette())) {
      console.warn(`DRIVER RETRY: Enter pressed again on '${title}'`);
      await this.page.keyboard.press("Enter");
    }
  }

  /**
   * Reloads the window and waits for the new workbench: waiting on a selector alone could match the page
   * being torn down, and the next read would then fail with "execution context was destroyed".
   */
  async reloadWindow(): Promise<void> {
    const navigated = this.page.waitForEvent("framenavigated", { predicate: (frame) => frame === this.page.mainFrame(), timeout: 60_000 });
    await this.runCommand("Developer: Reload Window");
    await navigated;
    await this.page.waitForSelector(".monaco-workbench .part.activitybar .action-item", { timeout: 60_000 });
  }

  /** Opens the CRM view and adds the test's emulator as the demo org ("Try the Demo Org", at an address). */
  async addDemoOrg(emulatorUrl: string): Promise<void> {
    await this.openContainer("CRM");
    await this.tryDemoOrgAt(emulatorUrl);
    await this.waitForRow("Orgs", "Demo org");
  }

  /** "Try the Demo Org" with an emulator at this address (not the built-in one). */
  async tryDemoOrgAt(emulatorUrl: string): Promise<void> {
    await this.runCommandInto("CRM: Try the Demo Org", "Try the Demo Org");
    await this.pick("Try the Demo Org", "A demo emulator at an address");
    await this.answer("Demo emulator address", emulatorUrl);
  }

  /** Replaces the text of the editor in front (typed as one edit, so auto-closing brackets do not get in the way). */
  async typeInEditor(text: string): Promise<void> {
    // The active group's editor: a query's results open beside it, so the window can hold several.
    await this.page.locator(".part.editor .editor-group-container.active .monaco-editor").first().click();
    await this.page.keyboard.press("Control+A");
    await this.page.keyboard.press("Delete");
    await this.page.keyboard.insertText(text);
  }

  /** Waits until the editor in front shows `text`; resolves with all it shows. */
  async editorShows(text: string): Promise<string> {
    const handle = await this.page.waitForFunction((expected) => {
      // Monaco renders spaces as non-breaking spaces.
      const shown = (document.querySelector(".part.editor .editor-group-container.active .monaco-editor .view-lines")?.textContent ?? "").replace(/\u00a0/g, " ");
      return shown.includes(expected) ? shown : false;
    }, text, { timeout: 20_000 });
    return (await handle.jsonValue()) as string;
  }

  /** Find and Replace in the editor in front: `from` becomes `to` everywhere. */
  async replaceInEditor(from: string, to: string): Promise<void> {
    await this.page.locator(".part.editor .editor-group-container.active .monaco-editor").first().click();
    await this.page.keyboard.press("Control+H");
    const find = this.page.locator(".editor-widget.find-widget");
    await find.locator(".find-part textarea, .find-part input").first().fill(from);
    await find.locator(".replace-part textarea, .replace-part input").first().fill(to);
    await this.page.keyboard.press("Control+Alt+Enter");
    await this.page.keyboard.press("Escape");
  }

  /** Writes a statement in a new SOQL document and runs it from the CodeLens that names the org it runs on. */
  async runNewQuery(text: string, org = "Demo org"): Promise<void> {
    await this.runCommand("CRM: New SOQL Query");
    await this.statusBarText(/^SOQL$/);
    await this.typeInEditor(text);
    const lenses = this.page.locator(".part.editor .editor-group-container.active .codelens-decoration");
    await lenses.filter({ hasText: org }).first().waitFor({ timeout: 20_000 });
    await lenses.locator("a", { hasText: /^\s*Run$/ }).first().click();
  }

  /** Waits for a quick input step whose title contains `title`. */
  async quickInput(title: string, timeout = 15_000): Promise<Locator> {
    const widget = this.page.locator(".quick-input-widget:visible");
    await widget.locator(".quick-input-title", { hasText: title }).waitFor({ timeout });
    return widget;
  }

  /**
   * Runs a command that opens a picker titled `opens`. A busy workbench can let runCommand's second Enter
   * land on the command's own picker while its items load, which closes it unanswered — before it shows or
   * just after: so the picker must still be there a moment later, or the command runs again.
   */
  async runCommandInto(title: string, opens: string): Promise<Locator> {
    return this.eventually(`'${title}' to open the picker '${opens}'`, async () => {
      await this.runCommand(title);
      const widget = await this.quickInput(opens, 8_000).catch(() => undefined);
      if (!widget) return void console.warn(`DRIVER RETRY: '${title}' opened no '${opens}'`);
      await this.page.waitForTimeout(500);
      if (await widget.locator(".quick-input-title", { hasText: opens }).isVisible().catch(() => false)) return widget;
      console.warn(`DRIVER RETRY: '${opens}' closed again`);
      return undefined;
    }, 40_000);
  }

  /**
   * Picks the item with this label in the open quick pick. The label is typed as the filter first: a list
   * that re-renders under the pointer (items arriving, an org signed out) must not take the click elsewhere.
   */
  async pick(title: string, label: string): Promise<void> {
    const widget = await this.quickInput(title);
    const input = widget.locator(".quick-input-box input");
    if (await input.isEditable().catch(() => false)) await input.fill(label);
    await widget.locator(".monaco-list-row", { hasText: label }).first().click();
  }

  /** Types into the open input box (replacing its value) and accepts. */
  async answer(title: string, text: string): Promise<void> {
    const widget = await this.quickInput(title);
    const input = widget.locator(".quick-input-box input");
    await input.fill(text);
    await this.page.keyboard.press("Enter");
  }

  pane(viewTitle: string): Locator {
    return this.page.locator(`.part.sidebar .pane:has(.pane-header[aria-label*="${viewTitle}"])`);
  }

  /** Expands a sidebar view (pane) if it is collapsed. */
  async expandPane(viewTitle: string): Promise<void> {
    const header = this.pane(viewTitle).locator(".pane-header");
    await header.waitFor();
    if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
  }

  /** Collapses a sidebar view, to give the others room (tree rows outside the visible area are not rendered). */
  async collapsePane(viewTitle: string): Promise<void> {
    const header = this.pane(viewTitle).locator(".pane-header");
    await header.waitFor();
    // The title, not the header's middle: the view's action buttons sit there.
    if ((await header.getAttribute("aria-expanded")) === "true") await header.locator(".title").click();
  }

  /** Scrolls a view's tree to its first or last row by keyboard (rows outside the visible area are not rendered). */
  async scrollTree(viewTitle: string, to: "Home" | "End"): Promise<void> {
    await this.pane(viewTitle).locator(".monaco-list").first().focus();
    await this.page.keyboard.press(to);
  }

  rowIn(viewTitle: string, label: string): Locator {
    return this.pane(viewTitle).locator(".monaco-list-row", { has: this.page.locator(".label-name", { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) }) }).first();
  }

  /** Expands a collapsed tree row in a view by its twistie (a click on a row with a command runs the command instead). */
  async expandRow(viewTitle: string, label: string): Promise<void> {
    const row = this.rowIn(viewTitle, label);
    await row.waitFor({ timeout: 30_000 });
    if ((await row.getAttribute("aria-expanded")) === "true") return;
    await row.locator(".monaco-tl-twistie").click();
    await this.eventually(`the row '${label}' in ${viewTitle} to expand`, async () => (await row.getAttribute("aria-expanded")) === "true");
  }

  /**
   * Runs work with the Knowledge view's groups expanded and filtered by a title, and clears the filter whatever
   * happened. The groups are expanded before the filter, last first (each one's rows go below it, so the others stay
   * in view): expanded while the filter's refresh redraws them, a twistie's click can land on a row being replaced.
   * The work starts once every row shown is one the filter keeps (an article whose title has the text, or a group's
   * "No … match" line): the refresh has been drawn.
   */
  async withKnowledgeFilter(title: string, work: () => Promise<void>): Promise<void> {
    const groups = ["Drafts", "Published", "Archived"];
    await this.expandPane("Knowledge");
    for (const group of [...groups].reverse()) await this.expandRow("Knowledge", group);
    await this.viewAction("Knowledge", "Filter Articles by Title");
    try {
      await this.answer("Filter articles by title", title);
      await this.eventually(`the Knowledge view filtered by '${title}'`, async () => {
        const shown = (await this.rows("Knowledge")).filter((r) => !groups.includes(r.label));
        return shown.length >= groups.length && shown.every((r) => r.label.includes(title));
      }, 30_000);
      await work();
    } finally {
      await this.viewAction("Knowledge", "Clear Articles Filter");
    }
  }

  /** Clicks a view's title action by its label (for example "Filter Objects…"). */
  async viewAction(viewTitle: string, label: string): Promise<void> {
    const pane = this.pane(viewTitle);
    await pane.hover();
    await pane.locator(`.pane-header .actions .action-label[aria-label^="${label}"]`).first().click();
  }

  /** Rows of the tree in a sidebar view: label, description, level. */
  async rows(viewTitle: string): Promise<{ label: string; description: string }[]> {
    return this.pane(viewTitle).locator(".monaco-list-row").evaluateAll((rows) =>
      rows.map((r) => ({ label: r.querySelector(".label-name")?.textContent?.trim() ?? "", description: r.querySelector(".label-description")?.textContent?.trim() ?? "" })),
    );
  }

  async waitForRow(viewTitle: string, label: string, descriptionMatch?: RegExp): Promise<{ label: string; description: string }> {
    return this.eventually(`a row '${label}' ${descriptionMatch ?? ""} in ${viewTitle}`, async () => {
      const rows = await this.rows(viewTitle);
      const row = rows.find((r) => r.label === label && (!descriptionMatch || descriptionMatch.test(r.description)));
      if (!row) throw new Error(`the rows are ${JSON.stringify(rows)}`);
      return row;
    }, 30_000);
  }

  row(label: string): Locator {
    return this.page.locator(".part.sidebar .monaco-list-row", { has: this.page.locator(".label-name", { hasText: label }) }).first();
  }

  /** Runs an entry of a tree row's context menu, as a right-click does. */
  async contextMenu(viewTitle: string, label: string, entry: string): Promise<void> {
    // A view still loading re-renders its rows when its data arrives, which closes a context menu open on one of
    // them; a click on the menu's entry then lands on whatever was beneath it. The menu opens once the view settled.
    await this.eventually(`${viewTitle} to finish loading`, async () => (await this.pane(viewTitle).locator(".monaco-progress-container.active").count()) === 0);
    await this.rowIn(viewTitle, label).click({ button: "right" });
    const menu = this.page.locator(".context-view .monaco-menu");
    await menu.waitFor();
    const item = menu.locator(".action-menu-item", { has: this.page.locator(".action-label", { hasText: entry }) }).first();
    await item.click();
    // A menu near the window's edge can still be settling when clicked: the highlighted entry is then chosen with Enter.
    await menu.waitFor({ state: "hidden", timeout: 3_000 }).catch(async () => {
      await item.hover();
      await this.page.keyboard.press("Enter");
      await menu.waitFor({ state: "hidden", timeout: 5_000 });
    });
  }

  /** The entries of a tree row's context menu (the menu is closed again with Escape). */
  async contextMenuEntries(label: string): Promise<string[]> {
    await this.row(label).click({ button: "right" });
    const menu = this.page.locator(".context-view .monaco-menu");
    await menu.waitFor();
    const entries = await menu.locator(".action-menu-item .action-label").allInnerTexts();
    await this.page.keyboard.press("Escape");
    return entries.map((e) => e.trim()).filter(Boolean);
  }

  async statusBarText(match: RegExp): Promise<string> {
    const item = this.page.locator(".part.statusbar .statusbar-item", { hasText: match }).first();
    await item.waitFor({ timeout: 20_000 });
    return (await item.innerText()).trim();
  }

  /** Every error a person can see now: notification toasts and messages inside views. */
  async errorsShown(): Promise<string[]> {
    const toasts = await this.page.locator(".notifications-toasts .notification-list-item").allInnerTexts();
    const viewMessages = await this.page.locator(".part.sidebar .pane-body .message").allInnerTexts();
    return [...toasts, ...viewMessages].map((t) => t.trim()).filter(Boolean);
  }

  /** The group (a row labelled with one of `groups`) a row sits under, in the order the view shows them. */
  async groupOf(viewTitle: string, label: string, groups: string[]): Promise<string | undefined> {
    let current: string | undefined;
    for (const row of await this.rows(viewTitle)) {
      if (groups.includes(row.label)) current = row.label;
      else if (row.label === label) return current;
    }
    return undefined;
  }

  async notification(match: RegExp): Promise<string> {
    const toast = this.page.locator(".notifications-toasts .notification-list-item", { hasText: match }).first();
    await toast.waitFor({ timeout: 30_000 });
    return (await toast.innerText()).trim();
  }

  /** The document inside a webview panel (VS Code nests it in two iframes) once it shows `text`. */
  async webview(text: string | RegExp, timeout = 30_000): Promise<Frame> {
    return this.eventually(`a webview showing '${String(text)}'`, async () => {
      for (const frame of this.page.frames()) {
        if (await frame.locator("main#app", { hasText: text }).count().catch(() => 0)) return frame;
      }
      return undefined;
    }, timeout);
  }

  /** A CRM notebook output (the renderer's `.crm-output`, in the notebook's webview) once it shows `text`. */
  async notebookOutput(text: string | RegExp, timeout = 30_000): Promise<Locator> {
    return this.eventually(`a notebook output showing '${String(text)}'`, async () => {
      for (const frame of this.page.frames()) {
        const output = frame.locator(".crm-output", { hasText: text });
        if (await output.count().catch(() => 0)) return output.first();
      }
      return undefined;
    }, timeout);
  }

  /** Opens a file of the workspace by name through Go to File (Ctrl+P), as a keyboard user does. */
  async openFile(name: string): Promise<void> {
    await this.runCommand("Go to File...");
    const widget = this.page.locator(".quick-input-widget:visible");
    const input = widget.locator(".quick-input-box input");
    // The palette's widget turns into Go to File's: its text loses the ">" of a command.
    await this.eventually("Go to File to open", async () => (await input.isVisible()) && !(await input.inputValue()).startsWith(">"));
    await input.fill(name);
    await widget.locator(".monaco-list-row", { hasText: name }).first().click();
    // The editor takes the keyboard once it is drawn (a notebook after its cells): a palette opened before then would
    // be closed by that focus. Done when the focus is in the opened editor.
    await this.eventually(`'${name}' to open with the focus`, () => this.page.evaluate((file) => {
      const tab = document.querySelector(".part.editor .editor-group-container.active .tab.active .label-name")?.textContent?.trim();
      const focused = document.activeElement;
      if (tab === file && focused?.closest(".notebook-editor, .part.editor .editor-group-container.active .editor-container")) return true;
      throw new Error(`the tab in front is '${tab}', the focus on ${focused?.tagName}.${focused?.className}`);
    }, name), 60_000);
  }

  /** What the window shows, for a failed journey's record: each editor group's tabs, each webview's first words, every notification. */
  async state(): Promise<string[]> {
    const groups = await this.page.locator(".part.editor .editor-group-container").evaluateAll((nodes) => nodes.map((g) => {
      const box = g.getBoundingClientRect();
      const tabs = [...g.querySelectorAll(".tab")].map((t) => `${t.classList.contains("active") ? "*" : ""}${(t.textContent ?? "").trim()}`);
      return `group at x=${Math.round(box.x)} width=${Math.round(box.width)}: ${tabs.join(" | ")}`;
    }));
    const webviews: string[] = [];
    for (const frame of this.page.frames()) {
      const app = await frame.locator("main#app").first().innerText({ timeout: 500 }).catch(() => undefined);
      if (app !== undefined) webviews.push(`webview ${frame.url().slice(0, 80)}: ${app.replace(/\s+/g, " ").slice(0, 160) || "(empty)"}`);
      else if (/index\.html\?id=/.test(frame.url())) webviews.push(`webview host ${frame.url().slice(0, 120)}: no content frame yet`);
    }
    // What VS Code said, toasts that hid themselves included: the notification center lists them all. It is
    // closed again: while it is open, new notifications go to it instead of toasts (the next journey waits for those).
    const bell = this.page.locator('.statusbar-item[id="status.notifications"]').first();
    await bell.click({ timeout: 2_000 }).catch(() => undefined);
    const said = await this.page.locator(".notifications-center .notification-list-item").allInnerTexts().catch(() => []);
    await bell.click({ timeout: 2_000 }).catch(() => undefined);
    await this.page.locator(".notifications-center").waitFor({ state: "hidden", timeout: 5_000 }).catch(() => undefined);
    return ["--- editor groups", ...groups, "--- webviews", ...webviews, "--- notifications", ...said.map((t) => t.replace(/\s+/g, " ").trim())];
  }

  /** Titles of the open editor tabs. */
  async tabs(): Promise<string[]> {
    return (await this.page.locator(".part.editor .tabs-container .tab .label-name").allInnerTexts()).map((t) => t.trim());
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = path.join(SCREENSHOTS, `${name}${this.shotSuffix}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }
}
