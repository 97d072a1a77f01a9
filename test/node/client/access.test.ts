import { test } from "node:test";
import assert from "node:assert/strict";
import { Crm, InvalidFieldError, MissingRequiredDataError, DataMismatchError, APIRequestError } from "../../../src/client";
import { useEmulator, demoClient } from "../../helpers/emulator";

const emu = useEmulator();
let client: Promise<Crm> | undefined;
const crm = () => (client ??= demoClient(emu()));

async function standardUserAndForeignRecord(c: Crm) {
  const user = (await c.soqlQuery<{ Id: string }>(`SELECT Id FROM User WHERE Profile.Name = 'Standard User' AND Id != '${emu().seeded.integrationUserId}' LIMIT 1`)).records[0]!.Id;
  const record = (await c.soqlQuery<{ Id: string }>(`SELECT Id FROM Account WHERE OwnerId != '${user}' AND CreatedById != '${user}' LIMIT 1`)).records[0]!.Id;
  return { user, record };
}

test("retrieveCurrentUserInfo: the relevant fields by default, everything with allData", async () => {
  const c = await crm();
  const relevant = await c.retrieveCurrentUserInfo();
  assert.deepEqual(Object.keys(relevant).sort(), ["email", "is_salesforce_integration_user", "language", "locale", "name", "nickname", "user_id", "user_type", "utcOffset"]);
  assert.equal(relevant.user_id, emu().seeded.adminId);
  const all = await c.retrieveCurrentUserInfo({ allData: true });
  assert.ok("urls" in all && "preferred_username" in all);
});

test("retrieveCurrentUserInfo on failure: defaults, or APIRequestError with raiseExcOnError", async () => {
  const c = await demoClient(emu(), { retry: { retries: 0 } });
  emu().setFault("unavailable", 2);
  try {
    const defaults = await c.retrieveCurrentUserInfo();
    assert.deepEqual([defaults.user_id, defaults.name, defaults.is_salesforce_integration_user], ["", "", null]);
    await assert.rejects(c.retrieveCurrentUserInfo({ raiseExcOnError: true }), (e: unknown) => e instanceof APIRequestError && e.status === 503);
  } finally {
    emu().setFault("unavailable", 0);
  }
});

test("checkUserRecordAccess for me and for another user", async () => {
  const c = await crm();
  const { user, record } = await standardUserAndForeignRecord(c);
  assert.deepEqual(await c.checkUserRecordAccess(record), { HasReadAccess: true, HasEditAccess: true, HasDeleteAccess: true });
  assert.deepEqual(await c.checkUserRecordAccess(record, user), { HasReadAccess: true, HasEditAccess: false, HasDeleteAccess: false });
  await assert.rejects(c.checkUserRecordAccess("nope"), RangeError);
});

test("canRead/canEdit/canDeleteRecord; canDeleteRecord checks delete access (not edit)", async () => {
  const c = await crm();
  const { user, record } = await standardUserAndForeignRecord(c);
  assert.equal(await c.canReadRecord(record, { userId: user }), true);
  assert.equal(await c.canEditRecord(record, { userId: user }), false);
  const editOnly = { HasReadAccess: true, HasEditAccess: true, HasDeleteAccess: false };
  assert.equal(await c.canEditRecord(record, { recordAccessData: editOnly }), true);
  assert.equal(await c.canDeleteRecord(record, { recordAccessData: editOnly }), false, "delete is judged by HasDeleteAccess");
});

test("canAccessRecord failures: raise by default, null with raiseExcOnFailure false", async () => {
  const c = await crm();
  const { record } = await standardUserAndForeignRecord(c);
  await assert.rejects(c.canAccessRecord("own" as "read", record), (e: unknown) => e instanceof InvalidFieldError && /'read', 'edit' or 'delete'/.test((e as Error).message));
  assert.equal(await c.canAccessRecord("own" as "read", record, { raiseExcOnFailure: false }), null);
  await assert.rejects(c.canAccessRecord("read", record, { recordAccessData: "yes" as never }), DataMismatchError);
  const missing = { HasReadAccess: null, HasEditAccess: null, HasDeleteAccess: null };
  await assert.rejects(c.canAccessRecord("read", record, { recordAccessData: missing }), MissingRequiredDataError);
  assert.equal(await c.canAccessRecord("read", record, { recordAccessData: missing, raiseExcOnFailure: false }), null);
});
