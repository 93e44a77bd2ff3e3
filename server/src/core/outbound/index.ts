export {
  type AddressClassification,
  classifyAddress,
  isAddressAllowed,
  type OutboundPolicy,
  outboundPolicyFor,
  parseCidrList,
} from './address-policy.ts';
export {
  OutboundClient,
  type OutboundClientOptions,
  type OutboundHeaders,
  type OutboundRequest,
  type OutboundResponse,
  type OutboundStreamResponse,
} from './client.ts';
export { OutboundError, type OutboundErrorCode } from './errors.ts';
export { type LookupFn, systemLookup, vetUrl } from './vet.ts';
