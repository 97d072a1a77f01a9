/**
 * The demo org is the project's own org emulator, built into the extension (`npm start`, `npm run emulator`). Its sign-in facts are
 * public test values, shared with the emulator so both sides agree.
 */
export const DEMO_ORG = {
  url: "http://127.0.0.1:8787",
  username: "admin@demo.crm",
  password: "demo-password",
  securityToken: "DEMOTOKEN1234",
  clientId: "3MVG9demoConsumerKey",
  clientSecret: "demo-consumer-secret",
} as const;
