/**
 * Images uploaded into rich-text fields through the API: an `<img>` whose `src` is a base64 data URI is
 * stored by the org and its `src` rewritten to an rtaImage URL (crm-rest-api.md §9). Orgs take PNG, JPEG and
 * GIF images of up to 1 MB each; the field's length limit counts the HTML after the images are taken out.
 */
import type { Ctx } from "./context";
import type { FieldDef, ObjectDef } from "./schema";
import { ApiError } from "./soql";
import type { Rec } from "./store";

const INLINE_IMAGE = /(<img\b[^>]*\bsrc\s*=\s*)(["'])data:([^;,"']*);base64,([^"']*)\2/gi;
const TYPES = new Set(["image/png", "image/jpeg", "image/gif"]);
export const MAX_IMAGE_BYTES = 1024 * 1024;

/** The field's value as the org measures it (images out), after checking each inline image. */
export function checkInlineImages(field: FieldDef, html: string): string {
  return html.replace(INLINE_IMAGE, (_all, before: string, quote: string, type: string, data: string) => {
    const bytes = Buffer.from(data, "base64");
    if (!TYPES.has(type.toLowerCase()) || !bytes.length || bytes.length > MAX_IMAGE_BYTES) {
      throw new ApiError(400, "FIELD_INTEGRITY_EXCEPTION", `${field.label}: an image must be a PNG, JPEG or GIF file of at most 1 MB (got ${type || "no type"}, ${bytes.length} bytes)`, [field.name]);
    }
    return `${before}${quote}${quote}`;
  });
}

/** Stores the record's inline images and points each `<img>` at its rtaImage URL (after the record has its ID). */
export function storeInlineImages(ctx: Ctx, def: ObjectDef, rec: Rec): void {
  const host = new URL(ctx.org.baseUrl()).host;
  for (const field of def.fields.filter((f) => f.richText && typeof rec[f.name] === "string")) {
    const feoid = field.name === "Answer__c" ? ctx.org.seeded.feoidAnswer : ctx.store.newId("00N").slice(0, 15);
    rec[field.name] = String(rec[field.name]).replace(INLINE_IMAGE, (_all, before: string, quote: string, type: string, data: string) => {
      const refid = ctx.store.newId("0EM").slice(0, 15);
      ctx.store.images.set(refid, { contentType: type.toLowerCase(), bytes: Buffer.from(data, "base64") });
      return `${before}${quote}https://${host}/servlet/rtaImage?eid=${String(rec.Id).slice(0, 15)}&amp;feoid=${feoid}&amp;refid=${refid}${quote}`;
    });
  }
}
