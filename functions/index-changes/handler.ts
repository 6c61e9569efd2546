/** The search index's stream consumer is built on the search-indexer branch; this stand-in lets the stack synthesize. */
export const handler = async (_event: unknown): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> => {
  throw new Error('index-changes: not built on this branch');
};
