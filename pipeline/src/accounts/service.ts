// Accounts, keys and alert rules over the account database: the operations behind the account endpoints (api.ts), one
// method each, over the modules that do them — sign-in.ts (sign up, verify), api-keys.ts (keys, authentication),
// rule-store.ts (rules), channel-admin.ts (secrets, re-enabling, the delivery log, notices), email-confirm.ts.
import type { Account, AccountServiceOptions } from './account-types.ts';
import { authenticate, createKey, listKeys, revokeKey } from './api-keys.ts';
import { deliveryLog, enableChannel, notices, rotateSecret } from './channel-admin.ts';
import { confirmEmail } from './email-confirm.ts';
import { createRule, deleteRule, getRule, listRules, updateRule, watchedCounties } from './rule-store.ts';
import { requestVerification, verify, type VerifyInput } from './sign-in.ts';

export class AccountService {
  constructor(readonly o: AccountServiceOptions) {}

  /** Creates the account if new, and sends a verification code and link. `requester`: the client's address. */
  requestVerification(body: unknown, requester?: string) {
    return requestVerification(this.o, body, requester);
  }

  /** Checks a code or link; issues an API key. `requester`: the client's address (sign-in-limits.ts). */
  verify(input: VerifyInput, requester?: string) {
    return verify(this.o, input, requester);
  }

  /** The account of `Authorization: Bearer <key>`; 401 when missing, malformed, unknown or revoked. */
  authenticate(header: string | undefined): Promise<Account> {
    return authenticate(this.o, header);
  }

  createKey(a: Account, body: unknown) {
    return createKey(this.o, a, body);
  }

  listKeys(a: Account) {
    return listKeys(this.o, a);
  }

  revokeKey(a: Account, id: string): Promise<void> {
    return revokeKey(this.o, a, id);
  }

  notices(a: Account) {
    return notices(this.o, a);
  }

  createRule(a: Account, body: unknown) {
    return createRule(this.o, a, body);
  }

  /** A rule of the account (404 for another account's rule too: ids do not leak). `secrets`: include webhook secrets. */
  getRule(a: Account, id: string, secrets = false) {
    return getRule(this.o, a, id, secrets);
  }

  listRules(a: Account) {
    return listRules(this.o, a);
  }

  updateRule(a: Account, id: string, body: unknown) {
    return updateRule(this.o, a, id, body);
  }

  deleteRule(a: Account, id: string): Promise<void> {
    return deleteRule(this.o, a, id);
  }

  /** New signing secret for a webhook channel; the old one stays valid (and is also signed with) for `grace_hours`. */
  rotateSecret(a: Account, ruleId: string, channelId: string, body: unknown) {
    return rotateSecret(this.o, a, ruleId, channelId, body);
  }

  /** Re-enables a channel that was disabled after sustained failure; held deliveries resume. */
  enableChannel(a: Account, ruleId: string, channelId: string) {
    return enableChannel(this.o, a, ruleId, channelId);
  }

  deliveries(a: Account, ruleId: string, limitRaw: string | undefined) {
    return deliveryLog(this.o, a, ruleId, limitRaw);
  }

  /** Opens an email channel's confirmation link (no key: the address's owner opens it). */
  confirmEmailChannel(token: unknown) {
    return confirmEmail(this.o, token);
  }

  /** Counties watched by any rule: their sources are polled hardened (the live core's hook). */
  watchedCounties(): Promise<Set<string>> {
    return watchedCounties(this.o);
  }
}
