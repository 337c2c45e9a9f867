// The password policy of a scope. Scope entries of the configuration
// may carry their own; DEFAULT_PASSWORD_POLICY applies otherwise.

export interface PasswordPolicy {
  minLength: number;
  minUpperCase: number;
  minLowerCase: number;
  minDigits: number;
  minSymbolOrPunctation: number;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 10,
  minUpperCase: 1,
  minLowerCase: 1,
  minDigits: 1,
  minSymbolOrPunctation: 1,
};

export const PASSWORD_POLICY_FAILED = 'Password does not meet the minimum requirements.';
export const PASSWORD_REPEAT_MISMATCH = 'Repeated password does not match.';
export const PASSWORD_MAX_LENGTH = 200;

const count = (value: string, pattern: RegExp) => (value.match(pattern) ?? []).length;

/** One line per unmet rule with the required count; empty when the password meets the policy. */
export function unmetPasswordRules(
  password: string,
  policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY,
): string[] {
  const lines: string[] = [];
  if ([...password].length < policy.minLength) lines.push(`Length: ${policy.minLength}`);
  if (count(password, /\p{Lu}/gu) < policy.minUpperCase)
    lines.push(`Upper case letters: ${policy.minUpperCase}`);
  if (count(password, /\p{Ll}/gu) < policy.minLowerCase)
    lines.push(`Lower case letters: ${policy.minLowerCase}`);
  if (count(password, /\p{Nd}/gu) < policy.minDigits) lines.push(`Digits: ${policy.minDigits}`);
  if (count(password, /[\p{P}\p{S}]/gu) < policy.minSymbolOrPunctation) {
    lines.push(`Symbols/Punctuation: ${policy.minSymbolOrPunctation}`);
  }
  return lines;
}

/** The failure text: the headline, then one line per unmet rule; undefined when the password is fine. */
export function checkPassword(
  password: string,
  policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY,
): string | undefined {
  const unmet = unmetPasswordRules(password, policy);
  if (password.length > PASSWORD_MAX_LENGTH)
    return `A password has at most ${PASSWORD_MAX_LENGTH} characters.`;
  return unmet.length === 0 ? undefined : [PASSWORD_POLICY_FAILED, ...unmet].join('\n');
}

export function checkPasswordRepeat(password: string, repeat: string): string | undefined {
  return password === repeat ? undefined : PASSWORD_REPEAT_MISMATCH;
}
