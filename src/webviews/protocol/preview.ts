/** The article body preview's messages (see common.ts). */
import * as z from "zod/mini";
import { commonUpdates, parserOf } from "./common";

const previewView = z.object({
  title: z.string(),
  /** The document's HTML as typed (images as data: URIs); untrusted: the webview sanitizes. */
  html: z.string(),
});
export type PreviewView = z.infer<typeof previewView>;

const hostToPreview = z.discriminatedUnion("type", [...commonUpdates, z.object({ type: z.literal("preview"), preview: previewView })]);
export type HostToPreview = z.infer<typeof hostToPreview>;

const previewToHost = z.discriminatedUnion("type", [z.object({ type: z.literal("ready") }), z.object({ type: z.literal("refresh") })]);
export type PreviewToHost = z.infer<typeof previewToHost>;

export const parsePreviewUpdate = parserOf(hostToPreview);
export const parsePreviewRequest = parserOf(previewToHost);
