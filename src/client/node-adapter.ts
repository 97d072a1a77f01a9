/**
 * A lean axios adapter on node:http/https. axios's own Node adapter carries proxy discovery, redirect
 * and progress-stream machinery the client never uses (the REST API does not redirect; the client
 * sends only JSON and form bodies), which costs about a tenth of a millisecond per loopback call.
 * This one does what the client needs: keep-alive agents, compressed responses, timeouts, cancellation.
 * (Inside VS Code, the editor's proxy support patches node:http/https, so proxies still apply there.)
 */
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
import { promisify } from "node:util";
import { AxiosError, AxiosHeaders, CanceledError, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from "axios";

const decoders: Record<string, (data: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  "x-gzip": promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

export function createNodeAdapter(agents: { http: http.Agent; https: https.Agent }): AxiosAdapter {
  return (config: InternalAxiosRequestConfig) =>
    new Promise<AxiosResponse>((resolve, reject) => {
      const url = new URL(config.url!);
      const isHttps = url.protocol === "https:";
      const headers = AxiosHeaders.from(config.headers).toJSON() as Record<string, string>;
      const body = config.data as string | Buffer | undefined;
      if (body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body));
      const signal = config.signal as AbortSignal | undefined;
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener?.("abort", onAbort);
        reject(err);
      };
      const req = (isHttps ? https : http).request(url, { method: (config.method ?? "get").toUpperCase(), headers, agent: isHttps ? agents.https : agents.http }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", (err) => fail(AxiosError.from(err, (err as NodeJS.ErrnoException).code, config, req)));
        res.on("end", async () => {
          try {
            const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            const decode = decoders[String(res.headers["content-encoding"] ?? "").toLowerCase()];
            const data = decode && raw.length ? await decode(raw) : raw;
            if (settled) return;
            settled = true;
            signal?.removeEventListener?.("abort", onAbort);
            resolve({ data, status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers: res.headers as AxiosResponse["headers"], config, request: req });
          } catch (err) {
            fail(AxiosError.from(err as Error, "ERR_BAD_RESPONSE", config, req));
          }
        });
      });
      // The error handler comes first, before anything below can throw: a request left without one crashes the process.
      req.on("error", (err) => fail(AxiosError.from(err, (err as NodeJS.ErrnoException).code, config, req)));
      const onAbort = () => {
        req.destroy();
        fail(new CanceledError(undefined, config, req));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener?.("abort", onAbort, { once: true });
      if (config.timeout) {
        req.setTimeout(config.timeout, () => {
          req.destroy();
          fail(new AxiosError(`timeout of ${config.timeout}ms exceeded`, AxiosError.ECONNABORTED, config, req));
        });
      }
      req.end(body);
    });
}
