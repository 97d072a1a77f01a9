/**
 * Starts the emulator in a child process (its own event loop and core) and returns its URL. Without gzip:
 * on loopback compression is pure cost, and not every client compared asks for it.
 */
import { spawn, type ChildProcess } from "node:child_process";

export async function startEmulatorProcess(seed: "demo" | "large" | "empty", options: { heapMB?: number } = {}): Promise<{ url: string; helperFile: string; stop: () => void; child: ChildProcess }> {
  // Millions of records (the nightly migration) need more heap than Node's default limit allows.
  const heap = options.heapMB ? [`--max-old-space-size=${options.heapMB}`] : [];
  const child = spawn(process.execPath, [...heap, "--import", "tsx", "src/demo-org/cli.ts", "--port", "0", "--seed", seed, "--no-gzip"], { stdio: ["ignore", "pipe", "inherit"] });
  const [url, helperFile] = await new Promise<[string, string]>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/[\d.:]+)[\s\S]*helper file\s+(\S+)/.exec(out);
      if (match) resolve([match[1]!, match[2]!]);
    });
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${out}`)));
  });
  return { url, helperFile, child, stop: () => child.kill("SIGTERM") };
}
