/**
 * Stands in for `@smithy/core/event-streams` inside Lambda bundles (an esbuild alias set in
 * infra/bundling.ts). Event streams carry the answers of a few streaming operations (S3
 * SelectObjectContent, Lambda InvokeWithResponseStream, …) that no function here calls; the S3
 * and Lambda clients still wire the codec in and the protocol layer imports it on demand, 19 KB
 * in every bundle. A client keeps its configuration shape; an event stream, were one ever asked
 * for, fails loudly instead of being decoded.
 */
const notBundled = (): never => {
  throw new Error('Event streams are not bundled into this Lambda function (infra/sdk-stand-ins/event-streams.ts)');
};

export const eventStreamSerdeProvider = () => ({ serialize: notBundled, deserialize: notBundled });

/** As the SDK's own: the client's marshaller comes from its provider (this one, unless the caller gives one). */
export const resolveEventStreamSerdeConfig = <T extends { eventStreamSerdeProvider: (input: T) => unknown }>(input: T) =>
  Object.assign(input, { eventStreamMarshaller: input.eventStreamSerdeProvider(input) });

export class EventStreamSerde {
  constructor() {
    notBundled();
  }
}
