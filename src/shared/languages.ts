/** Language codes as people read them (host and webview alike). */
const languageNames = new Intl.DisplayNames(["en"], { type: "language" });

/** "French (fr)"; the code alone where the runtime knows no name for it. */
export function languageLabel(code: string): string {
  let name: string | undefined;
  try {
    name = languageNames.of(code.replace(/_/g, "-"));
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}
