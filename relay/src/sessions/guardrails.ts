import type { HostRefusal } from '../browser/url-policy';
import { hostForms } from '../network/address-policy';
import { type Guardrails, guardrailRefusal } from '../store/guardrails';

/** The account's guardrails as a check of a host, in every form it goes by (see hostForms). */
export function guardrailCheck(rules: Guardrails): HostRefusal {
  return (host) => guardrailRefusal(rules, hostForms(host));
}
