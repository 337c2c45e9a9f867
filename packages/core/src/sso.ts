/** How a user's link to single sign-on was made, when no person or SCIM client made it: at the
 * user's first sign-in, by the email the provider asserted as verified (users.external_id_set_by). */
export const SSO_LINKED_BY_VERIFIED_EMAIL = 'sso:verifiedEmail';
