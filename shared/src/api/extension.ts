import { z } from 'zod';

/** POST /v1/extension/token: sign a browser in, with the account's email + password or an API key header. */
export const DeviceTokenRequest = z
  .object({
    email: z
      .string()
      .max(320)
      .optional()
      .describe("The account's email (with password; omit when sending an API key)."),
    password: z.string().max(1000).meta({ writeOnly: true }).optional().describe("The account's password."),
    pairing_code: z
      .string()
      .max(40)
      .meta({ writeOnly: true })
      .optional()
      .describe('A one-time code made for the account (npm run pair), instead of email and password.'),
    name: z
      .string()
      .max(100)
      .optional()
      .describe('A name for this browser, shown in device lists (e.g. "Laptop Chrome").'),
  })
  .meta({ id: 'DeviceTokenRequest' });
export type DeviceTokenRequest = z.infer<typeof DeviceTokenRequest>;

export const DeviceTokenResponse = z
  .object({
    token: z.string().describe('The device token: the extension sends it in its hello message. Shown once.'),
    device_id: z.string().describe('The device id (dev_<random>); revoking the device revokes the token.'),
  })
  .meta({ id: 'DeviceTokenResponse' });
export type DeviceTokenResponse = z.infer<typeof DeviceTokenResponse>;

export const RevokeDeviceResponse = z
  .object({ revoked: z.boolean().describe('true when the token was live and is now revoked.') })
  .meta({ id: 'RevokeDeviceResponse' });
export type RevokeDeviceResponse = z.infer<typeof RevokeDeviceResponse>;
