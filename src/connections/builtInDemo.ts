/**
 * The demo org shipped inside the extension: the project's emulator with its demo data (dist/demo-org.js, loaded
 * on first use, never at activation), serving on 127.0.0.1 in the extension host. Nothing leaves the machine;
 * its changes last while the window is open. No VS Code here.
 */
import type { startEmulator } from "../demo-org";

interface Running {
  url: string;
  close(): Promise<void>;
}

/** How the emulator module is loaded: from beside the extension bundle (tests pass the sources). */
export type DemoLoader = () => { startEmulator: typeof startEmulator };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fromBundle: DemoLoader = () => require("./demo-org.js") as { startEmulator: typeof startEmulator };

export class BuiltInDemo {
  private running?: Promise<Running>;

  constructor(private readonly load: DemoLoader = fromBundle) {}

  /** Starts the demo org if it is not running — at `preferredUrl`'s port when that is free — and resolves to its URL. */
  start(preferredUrl?: string): Promise<string> {
    this.running ??= this.listen(preferredUrl).catch((err: unknown) => {
      this.running = undefined;
      throw err;
    });
    return this.running.then((r) => r.url);
  }

  private async listen(preferredUrl: string | undefined): Promise<Running> {
    const { startEmulator } = this.load();
    const preferred = preferredUrl ? Number(new URL(preferredUrl).port) : 0;
    try {
      return await startEmulator({ port: preferred, seed: "demo" });
    } catch (err) {
      // Its old port is taken (another window's demo org, or another program): any free one will do.
      if (preferred && (err as NodeJS.ErrnoException).code === "EADDRINUSE") return startEmulator({ port: 0, seed: "demo" });
      throw err;
    }
  }

  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    await (await running?.catch(() => undefined))?.close();
  }
}
