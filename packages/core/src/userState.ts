import { z } from 'zod';

/** The signed-in user as every page receives it. */
export const userStateSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  locale: z.string(),
  countryCode: z.string(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
});
export type UserState = z.infer<typeof userStateSchema>;

export const singleSignOnFeatureSchema = z.object({
  applications: z.array(z.object({ name: z.string(), icon: z.string() })),
  enablePasswordHandling: z.boolean(),
});

export const featuresSchema = z.object({
  singleSignOn: singleSignOnFeatureSchema.optional(),
  resultFileDownloadTracking: z.boolean().optional(),
  selfRegistration: z.boolean().optional(),
});
export type Features = z.infer<typeof featuresSchema>;

/** Every view carries its type marker; the rest is the view's own data and server flags. */
export const viewSchema = z.looseObject({ $type: z.string(), title: z.string().optional() });
export type View = z.infer<typeof viewSchema>;

/** Embedded in each HTML page so the first render needs no fetch. */
export const initialStateSchema = z.object({
  user: userStateSchema.nullable(),
  view: viewSchema,
  locale: z.string(),
  features: featuresSchema,
});
export type InitialState = z.infer<typeof initialStateSchema>;

export const DEFAULT_LOCALE = 'en-au';
export const DEFAULT_COUNTRY_CODE = '+61';
export const PRODUCT_NAME = 'Dossier';
