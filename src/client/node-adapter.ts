/**
 * A lean axios adapter on node:http/https. axios's own Node adapter carries proxy discovery, redirect
 * and progress-stream machinery the client never uses (the REST API does not redirect; the client
 * sends only JSON and form bodies), which costs about a tenth of a millisecond per loopback call.
 * This one does what the client needs: keep-alive agents, compressed responses, a deadline for the whole
 * request, a cap on what an answer may grow to (inflated too), cancellation, and answers read as a stream.
 * (Inside VS Code, the editor's proxy support patches node:http/https, so proxies still apply there.)
 */
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { AxiosError, AxiosHeaders, CanceledError, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from "axios";

/** The error code of an answer that grew past `maxContentLength` (as sent, or once inflated). */
export const TOO_LARGE = "ERR_RESPONSE_TOO_LARGE";

type Decoder = (data: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions, done: (err: Error | null, out: Buffer) => void) => void;
const decoders: Record<string, { whole: Decoder; stream(): NodeJS.ReadWriteStream }> = {
  gzip: { whole: zlib.gunzip, stream: () => zlib.createGunzip() },
  "x-gzip": { whole: zlib.gunzip, stream: () => zlib.createGunzip() },
  deflate: { whole: zlib.inflate, stream: () => zlib.createInflate() },
  br: { whole: zlib.brotliDecompress, stream: () => zlib.createBrotliDecompress() },
};

/**
 * `config.responseType === "stream"`: the answer's body as a Readable, resolved when the headers arrive; the
 * deadline then gives way to `streamIdleMs` (no byte for that long ends the stream with an error).
 */
export interface StreamConfig {
  streamIdleMs?: number;
}

export function createNodeAdapter(agents: { http: http.Agent; https: https.Agent }): AxiosAdapter {
  return (config: InternalAxiosRequestConfig & StreamConfig) =>
    new Promise<AxiosResponse>((resolve, reject) => {
      const url = new URL(config.url!);
      const isHttps = url.protocol === "https:";
      const headers = AxiosHeaders.from(config.headers).toJSON() as Record<string, string>;
      const body = config.data as string | Buffer | { stream(): Readable; bytes: number } | undefined;
      const streamed = body !== undefined && typeof body === "object" && !Buffer.isBuffer(body) ? body : undefined;
      if (body !== undefined) headers["Content-Length"] = String(streamed ? streamed.bytes : Buffer.byteLength(body as string | Buffer));
      const signal = config.signal as AbortSignal | undefined;
      const maxBytes = config.maxContentLength !== undefined && config.maxContentLength > 0 ? config.maxContentLength : Infinity;
      let settled = false;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const finish = () => {
        settled = true;
        clearTimeout(deadline);
        signal?.removeEventListener?.("abort", onAbort);
      };
      const fail = (err: Error) => {
        if (settled) return;
        finish();
        reject(err);
      };
      const req = (isHttps ? https : http).request(url, { method: (config.method ?? "get").toUpperCase(), headers, agent: isHttps ? agents.https : agents.http }, (res) => {
        const answer = (data: unknown): AxiosResponse => ({ data, status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers: res.headers as AxiosResponse["headers"], config, request: req });
        const tooLarge = () => new AxiosError(`the answer is larger than ${maxBytes} bytes`, TOO_LARGE, config, req, answer(undefined));
        const decoder = decoders[String(res.headers["content-encoding"] ?? "").toLowerCase()];
        if (config.responseType === "stream") {
          const stream = decoder ? res.pipe(decoder.stream()) : res;
          res.on("error", (err) => (stream as Readable).destroy(err));
          if (decoder) (stream as Readable).on("error", () => res.destroy());
          if (config.streamIdleMs) {
            req.setTimeout(config.streamIdleMs, () => {
              const err = new AxiosError(`no data for ${config.streamIdleMs}ms`, AxiosError.ECONNABORTED, config, req);
              (stream as Readable).destroy(err);
              req.destroy(err);
            });
          }
          finish();
          resolve(answer(stream));
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) {
            req.destroy();
            return fail(tooLarge());
          }
          chunks.push(chunk);
        });
        res.on("error", (err) => fail(AxiosError.from(err, (err as NodeJS.ErrnoException).code, config, req)));
        res.on("end", () => {
          const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          if (!decoder || !raw.length) {
            if (settled) return;
            finish();
            return resolve(answer(raw));
          }
          // A few kilobytes of gzip can inflate to gigabytes: the cap holds for what it inflates to.
          decoder.whole(raw, Number.isFinite(maxBytes) ? { maxOutputLength: maxBytes } : {}, (err, data) => {
            if (err) return fail((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" ? tooLarge() : AxiosError.from(err, "ERR_BAD_RESPONSE", config, req));
            if (settled) return;
            finish();
            resolve(answer(data));
          });
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
      // A deadline for the whole request, not an idle limit: an answer that trickles a byte at a time still ends.
      if (config.timeout) {
        deadline = setTimeout(() => {
          req.destroy();
          fail(new AxiosError(`timeout of ${config.timeout}ms exceeded`, AxiosError.ECONNABORTED, config, req));
        }, config.timeout);
      }
      if (!streamed) return void req.end(body);
      const source = streamed.stream();
      req.on("close", () => source.destroy());
      source.on("error", (err) => {
        req.destroy(err);
        fail(AxiosError.from(err, (err as NodeJS.ErrnoException).code, config, req));
      });
      source.pipe(req);
    });
}
